//! Helpers shared by the service's integration tests: temporary folders,
//! key and registry files, and the service itself started in the test's
//! process on a loopback port.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio::sync::oneshot;
use x402_verdict_http::connections::ConnectionLimits;
use x402_verdict_service::clock::Clock;
use x402_verdict_service::{ServeConfig, ServeError};

pub const CHAIN: &str = "base";
pub const PAY_TO: &str = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";

mod folders;
pub use folders::*;

/// An error as the command prints it after `x402-verdict: `: the error and
/// each of its causes.
pub fn shown(error: &(dyn std::error::Error + 'static)) -> String {
    x402_verdict_consumer::error_chain(error)
}

/// Writes a key file (or rotates it) and returns its current public key.
pub fn keygen(path: &Path, rotate: bool) -> x402_verdict_core::ed25519_dalek::VerifyingKey {
    x402_verdict_service::keys::keygen(path, rotate).unwrap_or_else(|e| panic!("{}", shown(&e)))
}

/// What a service needs, in a fresh folder: a key file and `registry` (its
/// text) as the registry file.
pub struct ServiceFiles {
    /// The folder holding them (and whatever a test adds).
    pub dir: PathBuf,
    /// The key file.
    pub keys: PathBuf,
    /// The registry file.
    pub registry: PathBuf,
}

impl ServiceFiles {
    /// Writes both files into a fresh folder named after `name`.
    pub fn new(name: &str, registry: &str) -> ServiceFiles {
        let dir = scratch(name);
        let keys = dir.join("keys.json");
        keygen(&keys, false);
        let registry_file = dir.join("registry.json");
        std::fs::write(&registry_file, registry).unwrap();
        ServiceFiles {
            dir,
            keys,
            registry: registry_file,
        }
    }

    /// `serve`'s configuration for these files, on a free loopback port,
    /// under the command's default connection limits.
    pub fn config(&self) -> ServeConfig {
        config(&self.registry, &self.keys)
    }
}

/// `serve`'s configuration for `registry` and `keys`, on a free loopback
/// port, under the command's default connection limits.
pub fn config(registry: &Path, keys: &Path) -> ServeConfig {
    ServeConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        registry: registry.to_owned(),
        keys: keys.to_owned(),
        www: None,
        demo_paid: None,
        demo_discovery: None,
        connections: ConnectionLimits {
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(10),
            max_connections: 512,
        },
        operator: None,
        data: None,
        clock: Clock::System,
        log: None,
    }
}

/// The service, serving in this process until dropped.
pub struct Service {
    /// `http://ADDR`.
    pub url: String,
    _stop: oneshot::Sender<()>,
}

impl Service {
    /// Binds `config` and serves it.
    ///
    /// # Panics
    ///
    /// When the service does not start.
    pub async fn start(config: ServeConfig) -> Service {
        Service::try_start(config)
            .await
            .unwrap_or_else(|e| panic!("{}", shown(&e)))
    }

    /// Binds `config` and serves it, or says why it did not start.
    pub async fn try_start(config: ServeConfig) -> Result<Service, ServeError> {
        let bound = x402_verdict_service::bind(config).await?;
        let url = format!("http://{}", bound.local_addr());
        let (stop, stopped) = oneshot::channel::<()>();
        tokio::spawn(bound.serve(async move {
            let _ = stopped.await;
        }));
        Ok(Service { url, _stop: stop })
    }

    /// The `host:port` it listens on.
    pub fn addr(&self) -> &str {
        self.url.trim_start_matches("http://")
    }
}
