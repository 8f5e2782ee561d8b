//! A file that holds a secret (the service's key file), written and read as
//! ssh treats a private key.
//!
//! Writing: a fresh temporary file beside the target, created exclusively
//! under a random name (so a file or symbolic link planted there is never
//! opened), readable by its owner only from creation, flushed to disk, then
//! renamed over the target. A target that is a symbolic link is refused, and
//! so is a folder that its group or others may write without the sticky bit
//! (they could swap the file).
//!
//! Reading: only a regular file of at most 64 KiB that grants its group and
//! others no access, checked before a byte is read.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read as _, Write as _};
use std::path::{Path, PathBuf};

use rand_core::{OsRng, RngCore as _};

/// The largest secret file read; a key file with its previous keys is under 1 KiB.
const MAX_BYTES: u64 = 64 * 1024;

/// Why a secret file cannot be read or written.
#[derive(Debug)]
pub enum SecretFileError {
    /// The operating system's error on this path.
    Io(PathBuf, io::Error),
    /// It is not a regular file (a folder, a device such as `/dev/zero`, a FIFO).
    NotAFile(PathBuf),
    /// It is larger than 64 KiB.
    TooLarge(PathBuf),
    /// Its mode (the permission bits given) grants its group or others access.
    OpenToOthers(PathBuf, u32),
    /// The file to write is a symbolic link.
    Symlink(PathBuf),
    /// The folder to write in (its mode given) may be written by its group or
    /// others, and has no sticky bit.
    SharedFolder(PathBuf, u32),
}

impl fmt::Display for SecretFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io(path, e) => write!(f, "{}: {e}", path.display()),
            Self::NotAFile(path) => write!(
                f,
                "{}: not a regular file, so not a key file",
                path.display()
            ),
            Self::TooLarge(path) => write!(
                f,
                "{}: larger than 64 KiB, so not a key file",
                path.display()
            ),
            Self::OpenToOthers(path, mode) => write!(
                f,
                "{0}: holds a secret key but is open to others (mode {mode:04o}); run: chmod 600 {0}",
                path.display()
            ),
            Self::Symlink(path) => write!(
                f,
                "{0}: is a symbolic link, and a key file is never written through one; name the file itself, or run: rm {0}",
                path.display()
            ),
            Self::SharedFolder(folder, mode) => write!(
                f,
                "{0}: others may write this folder (mode {mode:04o}) and so replace a key file in it; run: chmod go-w {0}",
                folder.display()
            ),
        }
    }
}

impl std::error::Error for SecretFileError {}

/// The bytes of the secret file at `path` (a symbolic link is followed),
/// once it is known to be a private regular file of at most 64 KiB.
///
/// # Errors
///
/// The file is missing, not a regular file, too large, open to others, or
/// cannot be read.
pub fn read(path: &Path) -> Result<Vec<u8>, SecretFileError> {
    let io = |e| SecretFileError::Io(path.to_owned(), e);
    // Checked before opening, as opening a FIFO would wait for a writer…
    check_readable(path, &fs::metadata(path).map_err(io)?)?;
    let file = File::open(path).map_err(io)?;
    // …and again on the file opened, which no rename can change.
    check_readable(path, &file.metadata().map_err(io)?)?;
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(SecretFileError::TooLarge(path.to_owned()));
    }
    Ok(bytes)
}

/// Replaces the file at `path` with `bytes`, atomically, readable by its
/// owner only; a reader sees the old file or the new one, never a part.
///
/// # Errors
///
/// `path` is a symbolic link or in a folder others may write, or the
/// operating system's error.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), SecretFileError> {
    write_with_mode(path, bytes, 0o600)
}

/// As [`write`], readable by everyone (mode 0644): a file a static host
/// serves, such as a transparency log's tiles and checkpoint.
///
/// # Errors
///
/// As [`write`].
pub fn write_public(path: &Path, bytes: &[u8]) -> Result<(), SecretFileError> {
    write_with_mode(path, bytes, 0o644)
}

fn write_with_mode(path: &Path, bytes: &[u8], mode: u32) -> Result<(), SecretFileError> {
    let io = |e| SecretFileError::Io(path.to_owned(), e);
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(SecretFileError::Symlink(path.to_owned()))
        }
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(io(e)),
    }
    let name = path
        .file_name()
        .ok_or_else(|| SecretFileError::NotAFile(path.to_owned()))?;
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    check_folder(folder)?;
    let temporary = folder.join(format!(
        ".{}.{:016x}.tmp",
        name.to_string_lossy(),
        OsRng.next_u64()
    ));
    let mut options = OpenOptions::new();
    // O_CREAT | O_EXCL: fails on any existing file or link, never follows one.
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, mode);
    #[cfg(not(unix))]
    let _ = mode;
    let mut file = options
        .open(&temporary)
        .map_err(|e| SecretFileError::Io(temporary.clone(), e))?;
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| fs::rename(&temporary, path));
    if let Err(e) = written {
        // Best effort: the error that matters is the write's.
        let _ = fs::remove_file(&temporary);
        return Err(io(e));
    }
    sync_folder(folder)
}

fn check_readable(path: &Path, meta: &fs::Metadata) -> Result<(), SecretFileError> {
    if !meta.is_file() {
        return Err(SecretFileError::NotAFile(path.to_owned()));
    }
    if meta.len() > MAX_BYTES {
        return Err(SecretFileError::TooLarge(path.to_owned()));
    }
    check_private(path, meta)
}

/// Like ssh, a file holding a secret key must grant its group and others no access.
#[cfg(unix)]
fn check_private(path: &Path, meta: &fs::Metadata) -> Result<(), SecretFileError> {
    use std::os::unix::fs::PermissionsExt as _;
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(SecretFileError::OpenToOthers(path.to_owned(), mode));
    }
    Ok(())
}

/// A folder its group or others may write lets them rename the key file
/// away and put their own in its place, unless it has the sticky bit (as
/// `/tmp` has), which keeps each file to its owner.
#[cfg(unix)]
fn check_folder(folder: &Path) -> Result<(), SecretFileError> {
    use std::os::unix::fs::PermissionsExt as _;
    let mode = fs::metadata(folder)
        .map_err(|e| SecretFileError::Io(folder.to_owned(), e))?
        .permissions()
        .mode()
        & 0o7777;
    if mode & 0o022 != 0 && mode & 0o1000 == 0 {
        return Err(SecretFileError::SharedFolder(folder.to_owned(), mode));
    }
    Ok(())
}

/// Flushes the folder, so that the rename survives a crash.
#[cfg(unix)]
fn sync_folder(folder: &Path) -> Result<(), SecretFileError> {
    File::open(folder)
        .and_then(|dir| dir.sync_all())
        .map_err(|e| SecretFileError::Io(folder.to_owned(), e))
}

/// Elsewhere the operating system's own access rules apply.
#[cfg(not(unix))]
fn check_private(_path: &Path, _meta: &fs::Metadata) -> Result<(), SecretFileError> {
    Ok(())
}

/// Elsewhere the operating system's own access rules apply.
#[cfg(not(unix))]
fn check_folder(_folder: &Path) -> Result<(), SecretFileError> {
    Ok(())
}

/// Elsewhere a folder cannot be opened to be flushed.
#[cfg(not(unix))]
fn sync_folder(_folder: &Path) -> Result<(), SecretFileError> {
    Ok(())
}
