//! `arbiter-server`: people against people and computer players, over one WebSocket, on SQLite
//! or PostgreSQL. The rules are the core's; the server holds seats, clocks, storage and messages.

mod accounts;
mod bus;
mod cards;
mod challenges;
mod chat;
mod cluster;
mod commit;
mod config;
mod conn;
mod crash_point;
mod db;
mod economy;
mod ending;
mod error;
mod frames;
mod http;
mod hub;
mod live;
mod mush;
mod peers;
mod protocol;
mod quiz;
mod robots;
mod rules;
mod spectators;
mod table;
mod text;
mod told;

use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;

// A move's frames are trees of small allocations built and freed on every worker thread; glibc's
// allocator spent a quarter of the server's CPU at a thousand matches (perf), mimalloc a fraction.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("ARBITER_LOG").unwrap_or_else(|_| "arbiter_server=info".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arbiter-server: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> anyhow::Result<()> {
    let cli = config::Cli::parse();
    crash_point::arm_from_env()?;
    let audit = cli.audit;
    let config = config::Config::load(cli)?;
    let (pool, backend) = db::connect(&config.database).await?;
    if audit {
        let figures = economy::audit(&economy::Economy::new(pool))
            .await
            .map_err(|f| anyhow::anyhow!("{}", f.message))?;
        println!("{}", serde_json::to_string(&figures)?);
        anyhow::ensure!(figures.problems.is_empty(), "the economy's invariant does not hold");
        return Ok(());
    }
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|e| anyhow::anyhow!("listen on {}: {e}", config.listen))?;
    let addr = listener.local_addr()?;
    let mush = match config.mush_listen {
        Some(a) => Some(
            tokio::net::TcpListener::bind(a)
                .await
                .map_err(|e| anyhow::anyhow!("listen on {a}: {e}"))?,
        ),
        None => None,
    };
    let cluster = cluster::join(&config.database, backend).await?;
    let relay: Arc<dyn bus::Relay> = match &cluster {
        Some(c) => c.relay(),
        None => Arc::new(bus::LocalRelay::new()),
    };
    let (cap, reserve) = peers::connection_cap(config.max_connections);
    let peers = peers::Peers::new(config.max_per_peer, cap, reserve);
    tracing::info!("at most {cap} connections, {} a peer", config.max_per_peer);
    let robots = robots::Robots::ensure(&pool).await?;
    let hub = hub::Hub::new(config, pool, backend, relay, robots);
    if let Some(c) = &cluster {
        c.attach(&hub);
    }
    tracing::info!("database {} ({:?})", db::redact(&hub.config.database), hub.backend);
    let resumed = live::resume_all(&hub).await?;
    tracing::info!("{resumed} running matches resumed");
    for (id, deadline) in hub
        .economy
        .pending_choices()
        .await
        .map_err(|f| anyhow::anyhow!("{}", f.message))?
    {
        live::arm_choice(&hub, id, deadline);
    }
    let picking = challenges::resume_picking(&hub)
        .await
        .map_err(|f| anyhow::anyhow!("{}", f.message))?;
    tracing::info!("{picking} picking windows resumed");
    if let Some(c) = &cluster {
        c.run(&hub);
    }
    // The first line on stdout is the address (the tests and scripts read it); the text
    // listener's, when on, is the second.
    println!("http://{addr}/");
    if let Some(listener) = mush {
        println!("mush://{}", listener.local_addr()?);
        tokio::spawn(mush::serve(hub.clone(), listener, peers.clone()));
    }
    tokio::select! {
        () = http::serve(hub, listener, peers) => {}
        _ = tokio::signal::ctrl_c() => {}
    }
    Ok(())
}
