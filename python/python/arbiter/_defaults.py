"""The options' defaults as the core declares them (``arbiter.describe``): the adapters take their
defaults from here, so that no Python file writes one out."""

from typing import Any

from ._core import describe


def default(game: str, option: str) -> Any:
    """The core's default of ``option`` for ``game``."""
    return next(o["default"] for o in describe(game)["options"] if o["name"] == option)


#: The Triple Triad preset of options that name none.
DEFAULT_PRESET: str = default("triple-triad", "preset")
#: The Trax variant of options that name none.
DEFAULT_VARIANT: str = default("trax", "variant")
