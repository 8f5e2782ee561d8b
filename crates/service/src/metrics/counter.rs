//! The aggregate count of verdict answers served, per month, in SQLite.
//!
//! The verdict path only increments a number in memory; a task writes the
//! increments to the database at most once a second, and once more at
//! shutdown. A crash (not Ctrl-C or SIGTERM) loses at most the last second's
//! increments. Nothing but one number per month is stored: no request, no
//! endpoint, no address.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior};
use x402_verdict_consumer::error_chain;
use x402_verdict_core::{Month, Timestamp};

/// The database's file name inside the `--data` folder.
pub const FILE: &str = "verdict-counts.sqlite3";

/// How often pending increments are written, at most.
pub const FLUSH_EVERY: Duration = Duration::from_secs(1);

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS verdicts_served (
  month TEXT PRIMARY KEY,
  count INTEGER NOT NULL CHECK (count >= 0)
);";

/// Why the counts database cannot be used: the `--data` folder or the file,
/// then what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// `--data` names something other than a folder.
    #[error("--data {}: not a folder", .0.display())]
    NotAFolder(PathBuf),
    /// The folder cannot be created.
    #[error("--data {}: cannot create the folder", dir.display())]
    CreateFolder {
        /// The folder.
        dir: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The file is there but empty: not a database (SQLite would make it a
    /// fresh one, and every count saved before would be gone unnoticed).
    #[error("{path}: the file is empty (0 bytes), so not a verdict counts database; restore it, or remove it to count from zero: rm {path}", path = .0.display())]
    EmptyFile(PathBuf),
    /// SQLite cannot open or read it.
    #[error("{}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What SQLite said.
        source: rusqlite::Error,
    },
    /// SQLite's check found it corrupt (its answer given).
    #[error("{}: the database is corrupt ({check})", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What `PRAGMA quick_check` answered, or the value that is wrong.
        check: String,
    },
    /// It cannot be written.
    #[error("{}: not writable", path.display())]
    NotWritable {
        /// The file.
        path: PathBuf,
        /// What SQLite said.
        source: rusqlite::Error,
    },
    /// Its counts cannot be read.
    #[error("{}", path.display())]
    Counts {
        /// The file.
        path: PathBuf,
        /// What is wrong with them.
        source: TotalsError,
    },
}

/// The pending increments could not be saved (they stay pending).
#[derive(Debug, thiserror::Error)]
#[error("cannot save the verdict counts")]
pub struct FlushError(#[source] rusqlite::Error);

/// Why the totals cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum TotalsError {
    /// What SQLite said.
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    /// A row whose month is not `YYYY-MM`.
    #[error("the database is corrupt (month `{0}`)")]
    NotAMonth(String),
}

/// The verdict answers served per month, counted since `since`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// The month of the database's first start: earlier months were not counted.
    pub since: Option<Month>,
    /// The count of each month that has one.
    pub by_month: BTreeMap<Month, u64>,
}

/// The counter: pending increments in memory, totals in SQLite.
pub struct VerdictCounter {
    /// Locked before `pending` wherever both are held.
    db: Mutex<Connection>,
    pending: Mutex<BTreeMap<Month, u64>>,
    since: Month,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl VerdictCounter {
    /// Opens (or creates) the database in `dir`, checks it and proves it
    /// writable; the first start records its month as the start of counting.
    ///
    /// # Errors
    ///
    /// One line naming the folder or file and what is wrong: not a folder,
    /// not a database, corrupt, or not writable.
    pub fn open(dir: &Path, now: Timestamp) -> Result<Self, OpenError> {
        if dir.exists() && !dir.is_dir() {
            return Err(OpenError::NotAFolder(dir.to_owned()));
        }
        std::fs::create_dir_all(dir).map_err(|source| OpenError::CreateFolder {
            dir: dir.to_owned(),
            source,
        })?;
        let path = dir.join(FILE);
        let unreadable = |source| OpenError::Unreadable {
            path: path.clone(),
            source,
        };
        let not_writable = |source| OpenError::NotWritable {
            path: path.clone(),
            source,
        };
        let corrupt = |check: &str| OpenError::Corrupt {
            path: path.clone(),
            check: check.to_owned(),
        };
        // SQLite takes an empty file for a fresh database: counts lost would
        // silently start again from zero.
        if std::fs::metadata(&path).is_ok_and(|meta| meta.len() == 0) {
            return Err(OpenError::EmptyFile(path));
        }
        let mut db = Connection::open(&path).map_err(unreadable)?;
        db.busy_timeout(Duration::from_secs(2))
            .map_err(unreadable)?;
        let check: String = db
            .query_row("PRAGMA quick_check", [], |row| row.get(0))
            .map_err(unreadable)?;
        if check != "ok" {
            return Err(corrupt(&check));
        }
        let tx = db
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(not_writable)?;
        tx.execute_batch(SCHEMA).map_err(not_writable)?;
        tx.execute(
            "INSERT OR IGNORE INTO meta (key, value) VALUES ('countingSince', ?1)",
            [Month::of(now).to_string()],
        )
        .and_then(|_| {
            tx.execute(
                "INSERT INTO meta (key, value) VALUES ('lastStart', ?1)
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [now.to_rfc3339()],
            )
        })
        // The proof of writability: a value that changes at every start
        // (SQLite writes nothing, and so needs no journal, for a value that
        // stays the same, as `lastStart` does within one second).
        .and_then(|_| {
            tx.execute(
                "INSERT INTO meta (key, value) VALUES ('starts', '1')
                 ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1",
                [],
            )
        })
        .map_err(not_writable)?;
        let since: Option<String> = tx
            .query_row(
                "SELECT value FROM meta WHERE key = 'countingSince'",
                [],
                |row| row.get(0),
            )
            .optional()
            .map_err(unreadable)?;
        let since = since
            .as_deref()
            .and_then(Month::parse)
            .ok_or_else(|| corrupt("countingSince"))?;
        tx.commit().map_err(not_writable)?;
        let counter = VerdictCounter {
            db: Mutex::new(db),
            pending: Mutex::new(BTreeMap::new()),
            since,
        };
        counter
            .totals()
            .map_err(|source| OpenError::Counts { path, source })?;
        Ok(counter)
    }

    /// Counts one verdict answer served in `month` (in memory only).
    pub fn count(&self, month: Month) {
        *lock(&self.pending).entry(month).or_default() += 1;
    }

    /// Writes the pending increments in one transaction. On failure they stay
    /// pending, to be written by the next flush.
    ///
    /// # Errors
    ///
    /// What SQLite said.
    pub fn flush(&self) -> Result<(), FlushError> {
        let mut db = lock(&self.db);
        let batch = std::mem::take(&mut *lock(&self.pending));
        if batch.is_empty() {
            return Ok(());
        }
        let written = (|| {
            let tx = db.transaction()?;
            for (month, n) in &batch {
                tx.execute(
                    "INSERT INTO verdicts_served (month, count) VALUES (?1, ?2)
                     ON CONFLICT (month) DO UPDATE SET count = count + excluded.count",
                    rusqlite::params![month.to_string(), i64::try_from(*n).unwrap_or(i64::MAX)],
                )?;
            }
            tx.commit()
        })();
        if let Err(e) = written {
            let mut pending = lock(&self.pending);
            for (month, n) in batch {
                *pending.entry(month).or_default() += n;
            }
            return Err(FlushError(e));
        }
        Ok(())
    }

    /// The totals: what is saved plus what is pending.
    ///
    /// # Errors
    ///
    /// What SQLite said, or a row that is not a month and a count.
    pub fn totals(&self) -> Result<Counts, TotalsError> {
        let db = lock(&self.db);
        let mut statement = db.prepare_cached("SELECT month, count FROM verdicts_served")?;
        let rows = statement.query_map([], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
        })?;
        let mut by_month = BTreeMap::new();
        for row in rows {
            let (month, count) = row?;
            let month = Month::parse(&month).ok_or(TotalsError::NotAMonth(month))?;
            by_month.insert(month, u64::try_from(count).unwrap_or_default());
        }
        for (month, n) in lock(&self.pending).iter() {
            *by_month.entry(*month).or_default() += n;
        }
        Ok(Counts {
            since: Some(self.since),
            by_month,
        })
    }

    /// Flushes every [`FLUSH_EVERY`] until the task is aborted.
    pub fn spawn_flusher(self: Arc<Self>) -> tokio::task::JoinHandle<()> {
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(FLUSH_EVERY);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let counter = Arc::clone(&self);
                match tokio::task::spawn_blocking(move || counter.flush()).await {
                    Ok(Ok(())) => {}
                    Ok(Err(problem)) => tracing::error!("{}", error_chain(&problem)),
                    Err(e) => tracing::error!("the count flush failed: {e}"),
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn month(s: &str) -> Month {
        Month::parse(s).unwrap()
    }

    #[test]
    fn counts_survive_reopening_and_pending_counts_are_visible() {
        let dir = std::env::temp_dir().join(format!("counter-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let now = Timestamp::parse_rfc3339("2026-06-20T00:00:00Z").unwrap();
        let counter = VerdictCounter::open(&dir, now).unwrap();
        counter.count(month("2026-06"));
        counter.count(month("2026-06"));
        assert_eq!(counter.totals().unwrap().by_month[&month("2026-06")], 2);
        counter.flush().unwrap();
        counter.count(month("2026-07"));
        counter.flush().unwrap();
        drop(counter);
        let later = Timestamp::parse_rfc3339("2026-09-01T00:00:00Z").unwrap();
        let counter = VerdictCounter::open(&dir, later).unwrap();
        let counts = counter.totals().unwrap();
        assert_eq!(counts.since, Some(month("2026-06")));
        assert_eq!(
            counts.by_month.into_iter().collect::<Vec<_>>(),
            vec![(month("2026-06"), 2), (month("2026-07"), 1)]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
