//! Politeness to the origins of many resources asked at once (`scan
//! --live`): at most so many requests in flight per origin (scheme, host
//! and port), at least so long between two that start on one origin, and
//! the origins taken in turn, so that a slow origin holds only its own
//! share while the others go on.
//!
//! [`OriginQueue`] holds the work, grouped by origin, and hands out the
//! next piece that may start; its caller bounds the work in flight overall
//! and says when a piece is [done](OriginQueue::done). It holds the queue
//! of each origin and nothing else: its memory is that of the work given.

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use tokio::time::Instant;

/// How polite to be to each origin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Politeness {
    /// The most requests in flight at once to one origin (at least 1).
    pub per_origin: usize,
    /// The least time between the starts of two requests to one origin.
    pub delay: Duration,
}

/// Work waiting, grouped by origin, handed out politely.
#[derive(Debug)]
pub struct OriginQueue<T> {
    origins: Vec<Origin<T>>,
    /// The origin looked at first by the next [`OriginQueue::start`].
    turn: usize,
    waiting: usize,
    rule: Politeness,
}

#[derive(Debug)]
struct Origin<T> {
    waiting: VecDeque<T>,
    in_flight: usize,
    /// When the next request to it may start.
    next_start: Option<Instant>,
}

impl<T> OriginQueue<T> {
    /// The queue of `work`, each piece with its origin's name, in the
    /// order given within each origin.
    pub fn new(work: impl IntoIterator<Item = (String, T)>, rule: Politeness) -> Self {
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut origins: Vec<Origin<T>> = Vec::new();
        let mut waiting = 0;
        for (origin, piece) in work {
            let i = *index.entry(origin).or_insert_with(|| {
                origins.push(Origin {
                    waiting: VecDeque::new(),
                    in_flight: 0,
                    next_start: None,
                });
                origins.len() - 1
            });
            origins[i].waiting.push_back(piece);
            waiting += 1;
        }
        OriginQueue {
            origins,
            turn: 0,
            waiting,
            rule: Politeness {
                per_origin: rule.per_origin.max(1),
                ..rule
            },
        }
    }

    /// How many pieces wait to start.
    pub fn waiting(&self) -> usize {
        self.waiting
    }

    /// The next piece that may start at `now`, with its origin's number
    /// (for [`OriginQueue::done`]): the origins in turn, each with room
    /// and past its delay. Otherwise when one may start (`None`: when a
    /// piece in flight is done, or never when none waits).
    ///
    /// # Errors
    ///
    /// No piece may start now: when one may.
    pub fn start(&mut self, now: Instant) -> Result<(usize, T), Option<Instant>> {
        let count = self.origins.len();
        let mut soonest: Option<Instant> = None;
        for step in 0..count {
            let i = (self.turn + step) % count;
            let origin = &mut self.origins[i];
            if origin.waiting.is_empty() || origin.in_flight >= self.rule.per_origin {
                continue;
            }
            match origin.next_start {
                Some(at) if at > now => {
                    soonest = Some(soonest.map_or(at, |s| s.min(at)));
                }
                _ => {
                    let Some(piece) = origin.waiting.pop_front() else {
                        continue;
                    };
                    origin.in_flight += 1;
                    origin.next_start = Some(now + self.rule.delay);
                    self.waiting -= 1;
                    self.turn = (i + 1) % count;
                    return Ok((i, piece));
                }
            }
        }
        Err(soonest)
    }

    /// The next piece that may start, waiting for an origin's delay to
    /// pass; pending for ever while every origin with work waiting is full
    /// (a caller waits on its work in flight beside it). Cancel-safe:
    /// nothing changes until it is ready.
    pub async fn next(&mut self) -> (usize, T) {
        loop {
            match self.start(Instant::now()) {
                Ok(started) => return started,
                Err(Some(at)) => tokio::time::sleep_until(at).await,
                Err(None) => std::future::pending::<()>().await,
            }
        }
    }

    /// A piece of origin `origin` is done: the origin has room again.
    pub fn done(&mut self, origin: usize) {
        if let Some(origin) = self.origins.get_mut(origin) {
            origin.in_flight = origin.in_flight.saturating_sub(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queue(work: &[(&str, u32)], per_origin: usize, delay_ms: u64) -> OriginQueue<u32> {
        let rule = Politeness {
            per_origin,
            delay: Duration::from_millis(delay_ms),
        };
        OriginQueue::new(work.iter().map(|(o, n)| ((*o).to_owned(), *n)), rule)
    }

    #[test]
    fn origins_take_turns_each_within_its_room() {
        let mut q = queue(
            &[
                ("slow", 1),
                ("slow", 2),
                ("slow", 3),
                ("a", 4),
                ("b", 5),
                ("a", 6),
            ],
            2,
            0,
        );
        let now = Instant::now();
        let mut started = Vec::new();
        while let Ok((_, n)) = q.start(now) {
            started.push(n);
        }
        // Two of the slow origin's at most, the others in turn beside them.
        assert_eq!(started, [1, 4, 5, 2, 6]);
        assert_eq!(q.waiting(), 1);
        assert_eq!(q.start(now), Err(None), "the slow origin is full");
        q.done(0);
        assert_eq!(q.start(now), Ok((0, 3)));
    }

    #[test]
    fn an_origin_waits_its_delay_between_two_starts() {
        let mut q = queue(&[("a", 1), ("a", 2), ("b", 3)], 2, 500);
        let now = Instant::now();
        assert_eq!(q.start(now), Ok((0, 1)));
        assert_eq!(q.start(now), Ok((1, 3)));
        let later = now + Duration::from_millis(500);
        assert_eq!(q.start(now), Err(Some(later)));
        assert_eq!(q.start(later), Ok((0, 2)));
        assert_eq!(q.start(later), Err(None));
    }
}
