//! Helpers shared by the integration tests: temporary folders, the real
//! service started on a loopback port, and the `x402-verdict` command.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

pub const BIN: &str = env!("CARGO_BIN_EXE_x402-verdict");
pub const CHAIN: &str = "base";
pub const PAY_TO: &str = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
/// The prefix of every demo resource URL.
pub const R: &str = "https://api.example.com/";

#[path = "../../../service/tests/support/folders.rs"]
mod folders;
pub use folders::*;

/// A fresh folder that [`OTHER_UID`] can reach (mode 0755, under a
/// temporary folder whose every parent it may traverse), removed when
/// dropped: the clone itself may sit in a folder no other user can enter,
/// such as root's home or one made by `mktemp -d`.
pub struct ReachableFolder(pub PathBuf);

impl ReachableFolder {
    /// Makes one, named after `name`.
    pub fn new(name: &str) -> ReachableFolder {
        use std::os::unix::fs::PermissionsExt as _;
        static N: AtomicUsize = AtomicUsize::new(0);
        let base = reachable_base();
        let dir = base.join(format!(
            "x402-verdict-{name}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        ReachableFolder(dir)
    }
}

impl Drop for ReachableFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The first temporary folder that every user may traverse, down from `/`.
fn reachable_base() -> PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let candidates = std::env::var_os("TMPDIR")
        .map(PathBuf::from)
        .into_iter()
        .chain(["/tmp", "/var/tmp", "/dev/shm"].map(PathBuf::from));
    let traversable = |dir: &Path| {
        dir.ancestors().all(|d| {
            std::fs::metadata(d).is_ok_and(|m| m.is_dir() && m.permissions().mode() & 0o001 != 0)
        })
    };
    candidates
        .filter(|d| d.is_absolute())
        .find(|d| traversable(d))
        .expect(
            "no temporary folder that another user can reach (TMPDIR, /tmp, /var/tmp, /dev/shm)",
        )
}

/// The command, copied where [`OTHER_UID`] can run it (the build's own copy
/// may be inside a folder it cannot enter).
fn binary_for_another_user() -> &'static Path {
    use std::os::unix::fs::PermissionsExt as _;
    static COPY: std::sync::OnceLock<(ReachableFolder, PathBuf)> = std::sync::OnceLock::new();
    let (_, path) = COPY.get_or_init(|| {
        let folder = ReachableFolder::new("bin");
        let path = folder.0.join("x402-verdict");
        std::fs::copy(BIN, &path).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        (folder, path)
    });
    path
}

/// [`run`], as [`OTHER_UID`] (with `setpriv`) when the tests run as root,
/// so that file modes apply to it; the files it is given must be where it
/// can reach them (see [`ReachableFolder`]).
pub async fn run_as_another_user(args: &[&str]) -> (i32, String, String) {
    let mut command = if is_root() {
        let mut c = Command::new("setpriv");
        let id = OTHER_UID.to_string();
        c.args(["--reuid", &id, "--regid", &id, "--clear-groups", "--"]);
        c.arg(binary_for_another_user()).current_dir("/");
        c
    } else {
        Command::new(BIN)
    };
    command.args(args);
    outcome(command).await
}

/// An RFC 3339 time `hours` from now.
pub fn hours_from_now(hours: i64) -> String {
    seconds_from_now(hours * 3600)
}

/// An RFC 3339 time `seconds` from now.
pub fn seconds_from_now(seconds: i64) -> String {
    let now = x402_verdict_core::Timestamp::from_system_time(std::time::SystemTime::now());
    now.plus_seconds(seconds).to_rfc3339()
}

/// A registry attestation for `resource` with the given status and times.
pub fn attestation(
    resource: &str,
    status: &str,
    rechecked_hours_ago: i64,
    renew_in_hours: i64,
) -> Value {
    json!({
        "chain": CHAIN, "payTo": PAY_TO, "resourceUrl": resource,
        "operator": "Example Co <script>alert(1)</script>", "relatedParty": false,
        "assuranceLevel": "G", "status": status,
        "attestedAt": hours_from_now(-24 * 90),
        "lastRecheckedAt": hours_from_now(-rechecked_hours_ago),
        "recheckEveryHours": 24,
        "renewBy": hours_from_now(renew_in_hours),
    })
}

/// Runs the command to completion: (exit code, stdout, stderr).
pub async fn run(args: &[&str]) -> (i32, String, String) {
    let mut command = Command::new(BIN);
    command.args(args);
    outcome(command).await
}

/// Runs the command, sends it SIGINT (Ctrl-C) after `after` and waits for
/// it to end (within 10 s): (exit code, stdout, stderr).
pub async fn interrupted(args: &[&str], after: std::time::Duration) -> (i32, String, String) {
    let child = Command::new(BIN)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    tokio::time::sleep(after).await;
    let pid = child.id().unwrap().to_string();
    let sent = std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = tokio::time::timeout(std::time::Duration::from_secs(10), child.wait_with_output())
        .await
        .expect("the command ends on Ctrl-C")
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `command` to completion: (exit code, stdout, stderr).
async fn outcome(mut command: Command) -> (i32, String, String) {
    let out = command.kill_on_drop(true).output().await.unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Writes a key file with `keygen` and returns its current public key.
pub async fn keygen(path: &Path, rotate: bool) -> String {
    let mut args = vec!["keygen", "--out", path.to_str().unwrap()];
    if rotate {
        args.push("--rotate");
    }
    let (code, out, err) = run(&args).await;
    assert_eq!(code, 0, "{err}");
    out.lines()
        .find_map(|l| l.strip_prefix("publicKey "))
        .unwrap()
        .to_owned()
}

/// What a service needs, in a fresh folder: a key file written by `keygen`
/// and `registry` (its text) as the registry file.
pub struct ServiceFiles {
    /// The folder holding them (and whatever a test adds).
    pub dir: PathBuf,
    /// The key file.
    pub keys: PathBuf,
    /// The key file's current public key.
    pub public_key: String,
    /// The registry file.
    pub registry: PathBuf,
}

impl ServiceFiles {
    /// Writes both files into a fresh folder named after `name`.
    pub async fn new(name: &str, registry: &str) -> ServiceFiles {
        ServiceFiles::new_in(scratch(name), registry).await
    }

    /// Writes both files into `dir`.
    pub async fn new_in(dir: PathBuf, registry: &str) -> ServiceFiles {
        let keys = dir.join("keys.json");
        let public_key = keygen(&keys, false).await;
        let registry_file = dir.join("registry.json");
        std::fs::write(&registry_file, registry).unwrap();
        ServiceFiles {
            dir,
            keys,
            public_key,
            registry: registry_file,
        }
    }
}

/// Runs `sign --keys <keys> <file>`: exit code, stdout, stderr.
pub async fn sign_file(keys: &Path, file: &Path) -> (i32, String, String) {
    run(&[
        "sign",
        "--keys",
        keys.to_str().unwrap(),
        file.to_str().unwrap(),
    ])
    .await
}

/// Signs a verdict object with `sign`.
pub async fn sign(keys: &Path, verdict: &Value) -> Value {
    let file = keys.with_file_name(format!("verdict-{}.json", rand_name()));
    std::fs::write(&file, verdict.to_string()).unwrap();
    let (code, out, err) = sign_file(keys, &file).await;
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

fn rand_name() -> usize {
    static N: AtomicUsize = AtomicUsize::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

/// The real service, running until dropped.
pub struct Service {
    pub url: String,
    child: Child,
}

impl Service {
    /// Starts `serve` on a free loopback port and waits for its address.
    pub async fn start(registry: &Path, keys: &Path) -> Service {
        Service::start_with(registry, keys, &[]).await
    }

    /// [`Service::start`] with more `serve` arguments.
    pub async fn start_with(registry: &Path, keys: &Path, extra: &[&str]) -> Service {
        Service::start_on("127.0.0.1:0", registry, keys, extra).await
    }

    /// [`Service::start_with`] listening on `addr` (a restarted service's own).
    pub async fn start_on(addr: &str, registry: &Path, keys: &Path, extra: &[&str]) -> Service {
        let mut command = Command::new(BIN);
        command
            .args(["serve", "--listen", addr, "--registry"])
            .arg(registry)
            .arg("--keys")
            .arg(keys)
            .args(extra);
        Service::listening(command).await
    }

    /// Starts `mcp --listen` on a free loopback port with more arguments
    /// and these `VERIFICATION_*` variables; its `url` is the server's
    /// origin (`/mcp` and `/healthz` below it).
    pub async fn start_mcp(extra: &[&str], env: &[(&str, &str)]) -> Service {
        let mut command = Command::new(BIN);
        command
            .args(["mcp", "--listen", "127.0.0.1:0"])
            .args(extra)
            .env_remove("VERIFICATION_BASE_URL")
            .env_remove("VERIFICATION_PUBLIC_KEY")
            .env("RUST_LOG", "error")
            .envs(env.iter().copied());
        let mut service = Service::listening(command).await;
        service.url = service.url.trim_end_matches("/mcp").to_owned();
        service
    }

    /// Spawns `command` and waits for its `listening on URL` line.
    async fn listening(command: Command) -> Service {
        Service::listening_after(command, 0).await.0
    }

    /// Spawns `command`, a server that prints `before` lines and then its
    /// `listening on URL` line: the server and those lines.
    pub async fn listening_after(mut command: Command, before: usize) -> (Service, Vec<String>) {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut printed = Vec::new();
        for _ in 0..=before {
            let line = lines.next_line().await.unwrap();
            printed.push(line.expect("the server printed its address"));
        }
        let line = printed.pop().unwrap_or_default();
        let url = line.strip_prefix("listening on ").unwrap().to_owned();
        (Service { url, child }, printed)
    }

    /// The `host:port` it listens on.
    pub fn addr(&self) -> &str {
        self.url.trim_start_matches("http://")
    }

    /// Sends `signal` (`INT`, `TERM`, `KILL`) and waits for the process to end.
    pub async fn stop_with(mut self, signal: &str) {
        let pid = self.child.id().expect("running").to_string();
        let sent = std::process::Command::new("kill")
            .args([format!("-{signal}"), pid])
            .status()
            .unwrap();
        assert!(sent.success());
        self.child.wait().await.unwrap();
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

/// The `lookup` arguments for `resource` against `base`, trusting `keys`.
pub fn lookup_args<'a>(base: &'a str, resource: &'a str, keys: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "lookup",
        "--base-url",
        base,
        "--chain",
        CHAIN,
        "--pay-to",
        PAY_TO,
        "--resource-url",
        resource,
    ];
    for k in keys {
        args.extend(["--public-key", *k]);
    }
    args
}

/// `serve` on a free loopback port with the `registry` and `keys` files.
pub fn serve_args<'a>(registry: &'a str, keys: &'a str) -> Vec<&'a str> {
    let listen = ["serve", "--listen", "127.0.0.1:0"];
    let mut args = listen.to_vec();
    args.extend(["--registry", registry, "--keys", keys]);
    args
}

/// `lookup --json` for `resource` against `base`, trusting `keys`.
pub async fn lookup(base: &str, resource: &str, keys: &[&str], extra: &[&str]) -> Value {
    let mut args = lookup_args(base, resource, keys);
    args.push("--json");
    args.extend(extra);
    let (code, out, err) = run(&args).await;
    assert_eq!(code, 0, "lookup exits 0 for every result: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// The real service with one endpoint per outcome under [`R`]: attested
/// (good, revoked, stale, lapsed) and published (overdue, future, tampered,
/// foreign: signed by a key the consumer does not hold).
pub async fn start_demo() -> (PathBuf, String, Service) {
    let dir = scratch("service");
    let keys = dir.join("keys.json");
    let public = keygen(&keys, false).await;
    let other_keys = dir.join("other.json");
    keygen(&other_keys, false).await;
    let verdict = |resource: &str, verified_hours: i64| {
        json!({
            "v": 1, "chain": CHAIN, "payTo": PAY_TO, "resourceUrl": resource, "outcome": "human_backed",
            "assuranceLevel": "G", "verifiedAt": hours_from_now(verified_hours), "recheckEveryHours": 24,
        })
    };
    let overdue = sign(&keys, &verdict(&format!("{R}overdue"), -30)).await;
    // Verified ahead of the clock by more than the skew, and signed ahead of
    // it by less (a verification may not follow its signing by more).
    let mut future = verdict(&format!("{R}future"), 0);
    future["verifiedAt"] = json!(seconds_from_now(480));
    future["issuedAt"] = json!(seconds_from_now(240));
    let future = sign(&keys, &future).await;
    let mut tampered = sign(&keys, &verdict(&format!("{R}tampered"), -1)).await;
    tampered["verdict"]["assuranceLevel"] = json!("A");
    let foreign = sign(&other_keys, &verdict(&format!("{R}foreign"), -1)).await;
    let registry = json!({
        "attestations": [
            attestation(&format!("{R}good"), "active", 1, 24 * 30),
            attestation(&format!("{R}revoked"), "revoked", 1, 24 * 30),
            attestation(&format!("{R}stale"), "active", 30, 24 * 30),
            attestation(&format!("{R}lapsed"), "active", 1, -1),
        ],
        "published": [overdue, future, tampered, foreign],
    });
    let path = dir.join("registry.json");
    std::fs::write(&path, registry.to_string()).unwrap();
    let service = Service::start(&path, &keys).await;
    (dir, public, service)
}
