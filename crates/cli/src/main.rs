//! `x402-verdict`: the reference verification service, the MCP server, the
//! command-line consumer of x402 verification verdicts, and the published
//! metrics' snapshot and page.

// A dependency nothing uses fails the build (the test build also sees the
// dev-dependencies, which the integration tests use).
#![cfg_attr(not(test), deny(unused_crate_dependencies))]

mod badge;
mod check;
#[cfg(any(feature = "service", feature = "mcp"))]
mod connections;
mod live;
mod lookup;
#[cfg(feature = "mcp")]
mod mcp;
mod monitor;
mod out;
mod scan;
mod scan_error;
#[cfg(feature = "service")]
mod service;
mod shown;
mod snippet;
#[cfg(feature = "service")]
mod witness;

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Parser, Subcommand};

use shown::Shown;
use x402_verdict_consumer::error_chain;

/// Verification verdicts for x402 endpoints.
#[derive(Parser, Debug)]
// Plain styles: an error echoes the bad argument, and without styles of its
// own it can be printed with the argument's escape sequences escaped.
#[command(name = "x402-verdict", version, about, styles = clap::builder::Styles::plain())]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    #[cfg(feature = "service")]
    /// Run the reference verification service.
    Serve(service::ServeArgs),
    #[cfg(feature = "mcp")]
    /// Serve the verifier as MCP tools over stdio, or Streamable HTTP with --listen (configured by VERIFICATION_* variables).
    Mcp(mcp::McpArgs),
    /// Look one endpoint up and print the result.
    Lookup(lookup::LookupArgs),
    /// Read an endpoint's x402 payment challenge (without paying) and check every option it accepts.
    Check(check::CheckArgs),
    /// Look up every endpoint of a facilitator's discovery listing (or a saved page of it).
    Scan(scan::ScanArgs),
    /// Follow a service's transparency log; print the entries about a payTo (exit 4), or exit 5 on a split view.
    Monitor(monitor::MonitorArgs),
    /// Print every way to show an endpoint's badge: script tag, element, Markdown and HTML image, shields.io.
    Snippet(snippet::SnippetArgs),
    #[cfg(feature = "service")]
    /// Write a new signing key file, or rotate one, or a root key file (--root).
    Keygen(service::KeygenArgs),
    #[cfg(feature = "service")]
    /// Certify the key file's signing key under the root key.
    Certify(service::CertifyArgs),
    #[cfg(feature = "service")]
    /// Manage the root key: rotate it.
    #[command(subcommand)]
    Root(service::RootCommand),
    #[cfg(feature = "service")]
    /// Sign a verdict offline (for publishing on a static host or CDN).
    Sign(service::SignArgs),
    #[cfg(feature = "service")]
    /// Run a transparency log witness: cosign the log's consistent checkpoints, refuse a split view.
    Witness(witness::WitnessArgs),
    #[cfg(feature = "service")]
    /// Snapshot a service's published metrics, or render the static metrics page.
    #[command(subcommand)]
    Metrics(service::MetricsCommand),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            e.exit()
        }
        // clap echoes the bad argument: printed escaped.
        Err(e) => {
            for line in e.render().ansi().to_string().lines() {
                eprintln!("{}", Shown(line));
            }
            return ExitCode::from(2);
        }
    };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .with_target(false)
        .init();
    // The service uses every core; the other commands need one thread.
    let mut builder = match cli.command {
        #[cfg(feature = "service")]
        Command::Serve(_) => tokio::runtime::Builder::new_multi_thread(),
        #[cfg(feature = "service")]
        Command::Witness(_) => tokio::runtime::Builder::new_multi_thread(),
        _ => tokio::runtime::Builder::new_current_thread(),
    };
    let runtime = match builder.enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("x402-verdict: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async {
        match cli.command {
            #[cfg(feature = "service")]
            Command::Serve(args) => refused(service::serve(args).await),
            #[cfg(feature = "mcp")]
            Command::Mcp(args) => refused(mcp::run(args).await),
            Command::Lookup(args) => refused(lookup::lookup(args).await),
            // `check` tells a resource that gave no challenge (exit 1) from
            // bad input (exit 2).
            Command::Check(args) => check::check(args).await.map_err(|e| {
                print_error(&e);
                e.exit_code()
            }),
            // `scan` tells a listing that could not be read (exit 1) from bad
            // input (exit 2), and with --live a resource that changed (exit 3).
            Command::Scan(args) => scan::scan(args).await.map_err(|e| {
                if let Some(also) = e.also() {
                    print_error(also);
                }
                print_error(&e);
                e.exit_code()
            }),
            // `monitor` tells entries about the payTo (exit 4) and an
            // inconsistent log (exit 5) from nothing new (exit 0).
            Command::Monitor(args) => match monitor::monitor(args).await {
                Ok(false) => Ok(()),
                Ok(true) => Err(monitor::EXIT_ENTRIES),
                Err(e) => {
                    print_error(&e);
                    Err(e.exit_code())
                }
            },
            Command::Snippet(args) => refused(snippet::snippet(args)),
            #[cfg(feature = "service")]
            Command::Keygen(args) => refused(service::keygen(&args)),
            #[cfg(feature = "service")]
            Command::Certify(args) => refused(service::certify(&args)),
            #[cfg(feature = "service")]
            Command::Root(command) => refused(service::root(&command)),
            #[cfg(feature = "service")]
            Command::Sign(args) => refused(service::sign(&args)),
            #[cfg(feature = "service")]
            Command::Witness(args) => refused(witness::run(args).await),
            #[cfg(feature = "service")]
            Command::Metrics(command) => refused(service::run_metrics(&command).await),
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => ExitCode::from(code),
    }
}

/// Prints `x402-verdict: <message>` on stderr: the error and each of its
/// causes, once ([`error_chain`]), escaped.
fn print_error(error: &(dyn std::error::Error + 'static)) {
    eprintln!("x402-verdict: {}", Shown(&error_chain(error)));
}

/// A command's result as the process's: its error printed, exit code 2.
fn refused<E: std::error::Error + 'static>(result: Result<(), E>) -> Result<(), u8> {
    result.map_err(|e| {
        print_error(&e);
        2
    })
}
