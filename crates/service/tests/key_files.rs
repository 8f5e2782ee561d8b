//! The key file written and read as ssh treats a private key: `keygen`
//! never opens a file or link planted beside the target, refuses a target
//! that is a link or in a folder others may write, and `sign`/`serve` read
//! nothing before the file is known to be a private regular file.

mod support;

use std::os::unix::fs::{symlink, PermissionsExt as _};
use std::path::Path;
use std::time::Duration;

use support::*;
use x402_verdict_service::keys;

fn set_mode(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path)
        .unwrap()
        .permissions()
        .mode()
        & 0o7777
}

/// A verdict to sign, in `dir`.
fn verdict_in(dir: &Path) -> std::path::PathBuf {
    let verdict = dir.join("verdict.json");
    std::fs::write(
        &verdict,
        r#"{"v": 1, "chain": "base", "payTo": "p", "resourceUrl": "r", "outcome": "no_signal"}"#,
    )
    .unwrap();
    verdict
}

/// What `keygen --out PATH` (with `--rotate`) refuses, as the command says it.
fn keygen_refused(path: &Path, rotate: bool) -> String {
    shown(&keys::keygen(path, rotate).expect_err("keygen refuses"))
}

#[tokio::test]
async fn keygen_never_writes_through_a_planted_temporary_file() {
    // A folder everyone may write, with the sticky bit (as /tmp is), where
    // another user planted `keys.tmp` as a link to a file of theirs.
    let shared = scratch("planted");
    set_mode(&shared, 0o1777);
    let theirs = scratch("attacker").join("stolen");
    std::fs::write(&theirs, "").unwrap();
    give_to_another_user(&theirs);
    let planted = shared.join("keys.tmp");
    symlink(&theirs, &planted).unwrap();
    give_to_another_user(&planted);
    // Elsewhere, a stale `keys.tmp` of mode 0644.
    let own = scratch("stale");
    let stale = own.join("keys.tmp");
    std::fs::write(&stale, "stale").unwrap();
    set_mode(&stale, 0o644);
    for dir in [&shared, &own] {
        let keys = dir.join("keys.json");
        keygen(&keys, false);
        let meta = std::fs::symlink_metadata(&keys).unwrap();
        assert!(
            meta.file_type().is_file(),
            "{}: not a regular file",
            keys.display()
        );
        assert_eq!(mode(&keys), 0o600, "{}", keys.display());
        // Rotating writes it the same way.
        keygen(&keys, true);
        assert_eq!(mode(&keys), 0o600, "{}", keys.display());
        if let Err(e) = keys::sign(&keys, &verdict_in(dir)) {
            panic!("{}", shown(&e));
        }
        // Nothing is left behind but what was there and the key file.
        assert_eq!(names_in(dir), ["keys.json", "keys.tmp", "verdict.json"]);
    }
    assert_eq!(
        std::fs::read_to_string(&theirs).unwrap(),
        "",
        "the planted link was followed"
    );
    assert_eq!(std::fs::read_link(&planted).unwrap(), theirs);
    assert_eq!(std::fs::read_to_string(&stale).unwrap(), "stale");
}

#[tokio::test]
async fn keygen_refuses_a_folder_others_may_write_and_a_target_that_is_a_link() {
    for folder_mode in [0o777, 0o775, 0o757] {
        let dir = scratch("shared");
        set_mode(&dir, folder_mode);
        let keys = dir.join("keys.json");
        let d = dir.display();
        assert_eq!(
            keygen_refused(&keys, false),
            format!("{d}: others may write this folder (mode {folder_mode:04o}) and so replace a key file in it; run: chmod go-w {d}")
        );
        assert!(names_in(&dir).is_empty(), "nothing written");
    }
    // A target that is a link: never written through, dangling or not.
    let dir = scratch("link");
    let elsewhere = scratch("elsewhere");
    let real = elsewhere.join("real.json");
    let link = dir.join("keys.json");
    symlink(&real, &link).unwrap();
    let l = link.display();
    let refused = format!(
        "{l}: is a symbolic link, and a key file is never written through one; name the file itself, or run: rm {l}"
    );
    assert_eq!(keygen_refused(&link, false), refused);
    assert!(!real.exists());
    // Rotating through the link is refused too, and the real file is unchanged.
    keygen(&real, false);
    let before = std::fs::read(&real).unwrap();
    assert_eq!(keygen_refused(&link, true), refused);
    assert_eq!(std::fs::read(&real).unwrap(), before);
}

#[tokio::test]
async fn a_key_file_that_is_not_a_private_regular_file_is_never_read() {
    let ServiceFiles { dir, registry, .. } = ServiceFiles::new("unreadable", "{}");
    let verdict = verdict_in(&dir);
    let zero = dir.join("zero.json");
    symlink("/dev/zero", &zero).unwrap();
    let fifo = dir.join("fifo.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    set_mode(&fifo, 0o600);
    let large = dir.join("large.json");
    std::fs::write(&large, vec![b' '; 64 * 1024 + 1]).unwrap();
    set_mode(&large, 0o600);
    // Open to others and not JSON either: the mode is what is named.
    let open = dir.join("open.json");
    std::fs::write(&open, "not json").unwrap();
    set_mode(&open, 0o644);
    let cases = [
        (&zero, "not a regular file, so not a key file".to_owned()),
        (&fifo, "not a regular file, so not a key file".to_owned()),
        (&dir, "not a regular file, so not a key file".to_owned()),
        (&large, "larger than 64 KiB, so not a key file".to_owned()),
        (
            &open,
            format!(
                "holds a secret key but is open to others (mode 0644); run: chmod 600 {}",
                open.display()
            ),
        ),
    ];
    for (keys, problem) in cases {
        let k = keys.display().to_string();
        let expected = format!("{k}: {problem}");
        let serving = tokio::time::timeout(
            Duration::from_secs(60),
            Service::try_start(config(&registry, keys)),
        );
        let refused = match serving.await.expect("serve did not finish") {
            Ok(_) => panic!("serve --keys {k} started"),
            Err(e) => shown(&e),
        };
        assert_eq!(refused, expected, "serve --keys {k}");
        let (keys, verdict) = (keys.clone(), verdict.clone());
        let signing = tokio::task::spawn_blocking(move || keys::sign(&keys, &verdict));
        let refused = match tokio::time::timeout(Duration::from_secs(60), signing)
            .await
            .expect("sign did not finish")
            .unwrap()
        {
            Ok(_) => panic!("sign --keys {k} signed"),
            Err(e) => shown(&e),
        };
        assert_eq!(refused, expected, "sign --keys {k}");
    }
}
