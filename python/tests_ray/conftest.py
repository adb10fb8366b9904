"""One local Ray cluster of 2 CPUs for the whole session, started by the tests themselves."""

import pytest
import ray


@pytest.fixture(scope="session", autouse=True)
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()
