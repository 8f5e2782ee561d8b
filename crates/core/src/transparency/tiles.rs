//! The tlog-tiles layout (C2SP `tlog-tiles`): where a log's hash tiles
//! and entry bundles live, which a checkpoint adds, what each holds, and
//! the entry bundle's encoding. What a log writes and a monitor reads.

use super::merkle::Tree;

/// The hashes of a full tile, and the entries of a full bundle.
pub const TILE_WIDTH: u64 = 256;

/// The longest entry a bundle can hold (its length is 16 bits).
pub const MAX_ENTRY_BYTES: usize = u16::MAX as usize;

/// One tile, or one entry bundle (`level` `None`), of a tree of some size:
/// its level, its index in the level, and its width (256 when full).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    /// The tile's level, or `None` for an entry bundle.
    pub level: Option<u8>,
    /// Its index within the level.
    pub index: u64,
    /// How many hashes (entries) it holds, 1 to 256.
    pub width: u64,
}

impl Tile {
    /// Its path below the log's prefix: `tile/<L>/<N>[.p/<W>]`, or
    /// `tile/entries/<N>[.p/<W>]`, `<N>` in groups of three digits, every
    /// group but the last after an `x`.
    pub fn path(&self) -> String {
        let mut path = String::from("tile/");
        match self.level {
            Some(level) => path.push_str(&crate::writing::text!("{}", level)),
            None => path.push_str("entries"),
        }
        let digits = crate::writing::text!("{}", self.index);
        let groups = digits.len().div_ceil(3).max(1);
        let padded = [&"00"[..groups * 3 - digits.len()], &digits].concat();
        for (i, group) in padded.as_bytes().chunks(3).enumerate() {
            path.push_str(if i + 1 < groups { "/x" } else { "/" });
            path.push_str(std::str::from_utf8(group).unwrap_or_default());
        }
        if self.width < TILE_WIDTH {
            path.push_str(&crate::writing::text!(".p/{}", self.width));
        }
        path
    }

    /// Reads a path as [`Tile::path`] writes it (below the log's prefix);
    /// `None` for any other spelling (a zero-padded width, a full tile
    /// with `.p/256`, a level above 63).
    pub fn from_path(path: &str) -> Option<Tile> {
        let rest = path.strip_prefix("tile/")?;
        let (level, rest) = rest.split_once('/')?;
        let level = match level {
            "entries" => None,
            digits => Some(
                u8::try_from(super::note::decimal(digits)?)
                    .ok()
                    .filter(|l| *l < 64)?,
            ),
        };
        let (index, width) = match rest.split_once(".p/") {
            None => (rest, TILE_WIDTH),
            Some((index, width)) => {
                let width = super::note::decimal(width)?;
                (index, width)
            }
        };
        let mut digits = String::new();
        for group in index.split('/') {
            let group = group.strip_prefix('x').unwrap_or(group);
            digits.push_str(group);
        }
        let tile = Tile {
            level,
            index: digits.parse().ok()?,
            width,
        };
        (tile.width >= 1 && tile.width <= TILE_WIDTH && tile.path() == path).then_some(tile)
    }

    /// Whether a tree of `size` leaves holds it: every hash (entry) it
    /// names is below the tree's size at its level. A partial tile a tree
    /// holds never changes either; the tree grows into the next width.
    pub fn within(&self, size: u64) -> bool {
        let level = self.level.unwrap_or(0);
        self.index
            .checked_mul(TILE_WIDTH)
            .and_then(|first| first.checked_add(self.width))
            .is_some_and(|end| end <= hashes_at(level, size))
    }

    /// Whether it is full: immutable, served for a year.
    pub fn is_full(&self) -> bool {
        self.width == TILE_WIDTH
    }
}

/// The hashes at tile level `level` of a tree of `size` leaves.
fn hashes_at(level: u8, size: u64) -> u64 {
    size.checked_shr(8 * u32::from(level)).unwrap_or(0)
}

/// The tiles and entry bundles that a tree of `new` leaves has and the
/// tree of `old` has not (with `old` 0, every one): what a log writes when
/// its checkpoint grows from `old` to `new`, and a monitor reads.
pub fn new_tiles(old: u64, new: u64) -> Vec<Tile> {
    let mut tiles = Vec::new();
    let mut level = 0u8;
    while hashes_at(level, new) > 0 {
        let (before, after) = (hashes_at(level, old), hashes_at(level, new));
        for index in before / TILE_WIDTH..after.div_ceil(TILE_WIDTH) {
            let width = (after - index * TILE_WIDTH).min(TILE_WIDTH);
            if index * TILE_WIDTH + width > before {
                if level == 0 {
                    tiles.push(Tile {
                        level: None,
                        index,
                        width,
                    });
                }
                tiles.push(Tile {
                    level: Some(level),
                    index,
                    width,
                });
            }
        }
        level += 1;
    }
    tiles
}

/// The entry bundles that a tree of `new` leaves has and the tree of `old`
/// has not, one at a time: what a monitor reads, however large a size a
/// checkpoint claims ([`new_tiles`] lists every tile at once).
pub fn new_bundles(old: u64, new: u64) -> impl Iterator<Item = Tile> {
    let first = if old < new {
        old / TILE_WIDTH
    } else {
        u64::MAX
    };
    (first..new.div_ceil(TILE_WIDTH)).map(move |index| Tile {
        level: None,
        index,
        width: (new - index * TILE_WIDTH).min(TILE_WIDTH),
    })
}

impl Tree {
    /// The bytes of the hash tile `tile` (its hashes, each the root of the
    /// complete subtree of `256^level` leaves), when the tree holds them.
    pub fn tile(&self, tile: &Tile) -> Option<Vec<u8>> {
        let level = usize::from(tile.level?) * 8;
        let first = usize::try_from(tile.index * TILE_WIDTH).ok()?;
        let hashes = self.level(level)?.get(first..first + tile.width as usize)?;
        Some(hashes.concat())
    }
}

/// An entry bundle: each entry after its length, 16 bits big-endian;
/// `None` when an entry is longer than [`MAX_ENTRY_BYTES`].
pub fn entry_bundle<'a>(entries: impl IntoIterator<Item = &'a [u8]>) -> Option<Vec<u8>> {
    let mut bundle = Vec::new();
    for entry in entries {
        bundle.extend(u16::try_from(entry.len()).ok()?.to_be_bytes());
        bundle.extend(entry);
    }
    Some(bundle)
}

/// The entries of a bundle; `None` when it is not one.
pub fn read_entry_bundle(mut bundle: &[u8]) -> Option<Vec<&[u8]>> {
    let mut entries = Vec::new();
    while let Some((length, rest)) = bundle.split_first_chunk::<2>() {
        let (entry, rest) = rest.split_at_checked(usize::from(u16::from_be_bytes(*length)))?;
        entries.push(entry);
        bundle = rest;
    }
    bundle.is_empty().then_some(entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transparency::merkle::leaf_hash;

    fn tile(level: Option<u8>, index: u64, width: u64) -> Tile {
        Tile {
            level,
            index,
            width,
        }
    }

    #[test]
    fn paths_as_tlog_tiles_writes_them() {
        for bad in [
            "tile/0/1",
            "tile/0/001.p/256",
            "tile/0/001.p/0",
            "tile/0/001.p/07",
            "tile/64/000",
            "tile/entries/x000/001",
            "tile/0/000/",
            "tiles/0/000",
            "tile/-1/000",
        ] {
            assert_eq!(Tile::from_path(bad), None, "{bad}");
        }
        for (tile, path) in [
            (tile(Some(0), 1, 256), "tile/0/001"),
            (tile(Some(4), 0, 5), "tile/4/000.p/5"),
            (tile(Some(3), 123_456_078, 256), "tile/3/x123/x456/078"),
            (tile(Some(3), 123_456_078, 2), "tile/3/x123/x456/078.p/2"),
            (tile(Some(1), 3_057_500, 256), "tile/1/x003/x057/500"),
            (tile(None, 1_234_067, 256), "tile/entries/x001/x234/067"),
            (tile(None, 1000, 17), "tile/entries/x001/000.p/17"),
        ] {
            assert_eq!(tile.path(), path);
            assert_eq!(Tile::from_path(path), Some(tile));
        }
        // 300 leaves hold the first level 0 tile, the 44 of the second,
        // and the 1 of level 1; not 45, not the full second.
        assert!(tile(Some(0), 0, 256).within(300));
        assert!(tile(None, 1, 44).within(300));
        assert!(tile(Some(1), 0, 1).within(300));
        assert!(!tile(Some(0), 1, 45).within(300));
        assert!(!tile(None, 1, 256).within(300));
        assert!(!tile(Some(1), 0, 2).within(300));
        assert!(!tile(Some(0), u64::MAX, 256).within(u64::MAX));
    }

    #[test]
    fn the_tiles_of_the_specifications_examples() {
        // 70,000: 273 full level 0 tiles and one of 112, one full level 1
        // tile and one of 17, one level 2 tile of 1 (and the bundles).
        let tiles = new_tiles(0, 70_000);
        let at = |level: u8| -> Vec<(u64, u64)> {
            let level = tiles.iter().filter(|t| t.level == Some(level));
            level.map(|t| (t.index, t.width)).collect()
        };
        assert_eq!(at(0).len(), 274);
        assert_eq!(at(0)[273], (273, 112));
        assert_eq!(at(1), [(0, 256), (1, 17)]);
        assert_eq!(at(2), [(0, 1)]);
        assert_eq!(tiles.iter().filter(|t| t.level.is_none()).count(), 274);
        assert_eq!(
            new_tiles(0, 256),
            [
                tile(None, 0, 256),
                tile(Some(0), 0, 256),
                tile(Some(1), 0, 1)
            ]
        );
        // Growing from 300 to 520: the partial tile of 44 grows to full, one of 8 starts.
        assert_eq!(
            new_tiles(300, 520),
            [
                tile(None, 1, 256),
                tile(Some(0), 1, 256),
                tile(None, 2, 8),
                tile(Some(0), 2, 8),
                tile(Some(1), 0, 2),
            ]
        );
        assert!(new_tiles(520, 520).is_empty());
        for (old, new) in [
            (0, 0),
            (0, 1),
            (300, 520),
            (256, 512),
            (520, 520),
            (0, 70_000),
        ] {
            let bundles: Vec<_> = new_tiles(old, new)
                .into_iter()
                .filter(|t| t.level.is_none())
                .collect();
            assert_eq!(new_bundles(old, new).collect::<Vec<_>>(), bundles);
        }
        assert_eq!(new_bundles(5, u64::MAX).next(), Some(tile(None, 0, 256)));
    }

    #[test]
    fn a_tile_holds_the_roots_of_its_subtrees() {
        let leaves: Vec<_> = (0..600u32).map(|i| leaf_hash(&i.to_be_bytes())).collect();
        let tree = Tree::from_leaves(leaves.iter().copied());
        assert_eq!(
            tree.tile(&tile(Some(0), 2, 88)).unwrap(),
            leaves[512..].concat()
        );
        let upper = tree.tile(&tile(Some(1), 0, 2)).unwrap();
        let second = Tree::from_leaves(leaves[256..512].iter().copied());
        assert_eq!(upper[32..], second.root(256).unwrap());
        assert!(tree.tile(&tile(Some(1), 0, 3)).is_none());
        let entries: [&[u8]; 3] = [b"a", b"", b"{\"v\":1}"];
        let bundle = entry_bundle(entries).unwrap();
        assert_eq!(&bundle[..3], b"\0\x01a");
        assert_eq!(read_entry_bundle(&bundle).unwrap(), entries);
        assert!(read_entry_bundle(&bundle[..bundle.len() - 1]).is_none());
        assert!(entry_bundle([&[0u8; MAX_ENTRY_BYTES + 1][..]]).is_none());
    }
}
