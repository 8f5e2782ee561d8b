//! Temporary folders and "another user" for the integration tests of the
//! service and of the command (which includes this file by path).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh folder under the target directory, removed by nobody (cheap, inspectable).
pub fn scratch(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "{name}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The user tests play "another user" as when they run as root: nobody.
pub const OTHER_UID: u32 = 65534;

/// The names of the entries of `dir`, sorted.
pub fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Whether the tests run as root, who may write anything: then "another
/// user" is [`OTHER_UID`], and what must be refused to a user is run as it.
pub fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt as _;
    std::fs::metadata(scratch("whoami")).unwrap().uid() == 0
}

/// Gives `path` (a file, folder or link) to [`OTHER_UID`] when the tests run
/// as root, as if that user had made it; otherwise it stays the test's own.
pub fn give_to_another_user(path: &Path) {
    if is_root() {
        std::os::unix::fs::lchown(path, Some(OTHER_UID), Some(OTHER_UID)).unwrap();
    }
}
