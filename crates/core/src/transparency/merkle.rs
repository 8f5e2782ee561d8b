//! RFC 6962 (RFC 9162) Merkle tree hashing: leaf and node hashes, tree
//! hashes, and the inclusion and consistency proofs, written and checked.
//!
//! The writers are the reference log's and the tests' (they hold every
//! leaf hash); the checkers are every consumer's and witness's.

use sha2::{Digest, Sha256};

/// A SHA-256 hash: a leaf, a node or a tree's root.
pub type Hash = [u8; 32];

/// The most hashes a proof may hold: a tree of 2^63 leaves needs 63 (the
/// bound tlog-witness sets on a consistency proof).
pub const MAX_PROOF_HASHES: usize = 63;

/// The hash of a leaf holding `entry`: SHA-256(0x00 || entry).
pub fn leaf_hash(entry: &[u8]) -> Hash {
    let mut hasher = Sha256::new();
    hasher.update([0]);
    hasher.update(entry);
    hasher.finalize().into()
}

/// The hash of an inner node: SHA-256(0x01 || left || right).
pub fn node_hash(left: &Hash, right: &Hash) -> Hash {
    let mut hasher = Sha256::new();
    hasher.update([1]);
    hasher.update(left);
    hasher.update(right);
    hasher.finalize().into()
}

/// The largest power of two below `n` (`n` at least 2).
fn split(n: u64) -> u64 {
    1 << (u64::BITS - 1 - (n - 1).leading_zeros())
}

/// A log's tree: every leaf hash, and the hash of every complete subtree
/// above them, so that the root of any size and any proof is a few
/// lookups (the log's, the tests'; a consumer holds none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tree {
    /// `levels[l][i]`: the hash of the complete subtree of `2^l` leaves
    /// from leaf `i * 2^l`.
    levels: Vec<Vec<Hash>>,
}

impl Tree {
    /// The empty tree.
    pub fn new() -> Self {
        Tree::default()
    }

    /// The tree of `leaves`, in order.
    pub fn from_leaves(leaves: impl IntoIterator<Item = Hash>) -> Self {
        let mut tree = Tree::new();
        leaves.into_iter().for_each(|leaf| tree.push(leaf));
        tree
    }

    /// The hashes of the complete subtrees of `2^level` leaves, in order.
    pub(crate) fn level(&self, level: usize) -> Option<&[Hash]> {
        self.levels.get(level).map(Vec::as_slice)
    }

    /// Its leaf hashes, in order.
    pub fn leaves(&self) -> &[Hash] {
        self.level(0).unwrap_or_default()
    }

    /// How many leaves it holds.
    pub fn size(&self) -> u64 {
        self.levels.first().map_or(0, |leaves| leaves.len() as u64)
    }

    /// Appends the leaf hash `leaf`.
    pub fn push(&mut self, leaf: Hash) {
        let mut hash = leaf;
        for level in 0.. {
            if self.levels.len() == level {
                self.levels.push(Vec::new());
            }
            let row = &mut self.levels[level];
            row.push(hash);
            if row.len() % 2 == 1 {
                break;
            }
            hash = node_hash(&row[row.len() - 2], &row[row.len() - 1]);
        }
    }

    /// The hash of the leaves from `lo` to `hi` (excluded), as RFC 6962's
    /// MTH of them; `lo < hi <= size`.
    fn range(&self, lo: u64, hi: u64) -> Hash {
        let n = hi - lo;
        if n.is_power_of_two() && lo % n == 0 {
            return self.levels[n.trailing_zeros() as usize][(lo / n) as usize];
        }
        let k = split(n);
        node_hash(&self.range(lo, lo + k), &self.range(lo + k, hi))
    }

    /// The root hash of the tree of its first `size` leaves (the empty
    /// tree's is SHA-256 of nothing); `None` past its size.
    pub fn root(&self, size: u64) -> Option<Hash> {
        match size {
            0 => Some(Sha256::digest([]).into()),
            _ if size > self.size() => None,
            _ => Some(self.range(0, size)),
        }
    }

    /// The inclusion proof of leaf `index` in the tree of its first `size`
    /// leaves (RFC 6962 PATH); `None` when `index` is not a leaf of it.
    pub fn inclusion_proof(&self, index: u64, size: u64) -> Option<Vec<Hash>> {
        if index >= size || size > self.size() {
            return None;
        }
        let mut proof = Vec::new();
        let (mut lo, mut hi) = (0, size);
        while hi - lo > 1 {
            let k = split(hi - lo);
            if index < lo + k {
                proof.push(self.range(lo + k, hi));
                hi = lo + k;
            } else {
                proof.push(self.range(lo, lo + k));
                lo += k;
            }
        }
        proof.reverse();
        Some(proof)
    }

    /// The consistency proof from the tree of its first `old` leaves to the
    /// tree of its first `size` (RFC 6962 PROOF); empty when `old` is 0 or
    /// `size`, `None` when `old` is more or `size` past its size.
    pub fn consistency_proof(&self, old: u64, size: u64) -> Option<Vec<Hash>> {
        if old > size || size > self.size() {
            return None;
        }
        let mut proof = Vec::new();
        if old == 0 || old == size {
            return Some(proof);
        }
        let (mut lo, mut hi, mut whole) = (0, size, true);
        while old != hi {
            let k = split(hi - lo);
            if old <= lo + k {
                proof.push(self.range(lo + k, hi));
                hi = lo + k;
            } else {
                proof.push(self.range(lo, lo + k));
                lo += k;
                whole = false;
            }
        }
        if !whole {
            proof.push(self.range(lo, hi));
        }
        proof.reverse();
        Some(proof)
    }
}

/// The right edge of a tree: the roots of its complete subtrees, largest
/// first (one a set bit of its size), which are all a monitor keeps to
/// extend the tree with the entries that follow and compute each new root.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frontier {
    size: u64,
    /// The roots of the complete subtrees, largest (leftmost) first.
    hashes: Vec<Hash>,
}

impl Frontier {
    /// The empty tree's.
    pub fn new() -> Self {
        Frontier::default()
    }

    /// The frontier of a tree of `size` leaves from its subtree roots,
    /// largest first; `None` when there are not as many as `size` has set
    /// bits.
    pub fn from_hashes(size: u64, hashes: Vec<Hash>) -> Option<Self> {
        (hashes.len() == size.count_ones() as usize).then_some(Frontier { size, hashes })
    }

    /// How many leaves the tree holds.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The roots of its complete subtrees, largest first.
    pub fn hashes(&self) -> &[Hash] {
        &self.hashes
    }

    /// Appends the leaf hash `leaf`.
    pub fn push(&mut self, leaf: Hash) {
        let mut hash = leaf;
        // Each trailing set bit of the size is a subtree of that height to merge.
        let mut size = self.size;
        while size & 1 == 1 {
            let left = self.hashes.pop().unwrap_or_default();
            hash = node_hash(&left, &hash);
            size >>= 1;
        }
        self.hashes.push(hash);
        self.size += 1;
    }

    /// The tree's root hash (RFC 6962 MTH).
    pub fn root(&self) -> Hash {
        let mut hashes = self.hashes.iter().rev();
        match hashes.next() {
            None => Sha256::digest([]).into(),
            Some(last) => hashes.fold(*last, |right, left| node_hash(left, &right)),
        }
    }
}

/// Right-shifts `fn_` and `sn` together until `fn_`'s lowest bit is set
/// or it is 0.
fn shift_to_set_bit(fn_: &mut u64, sn: &mut u64) {
    while *fn_ & 1 == 0 && *fn_ != 0 {
        *fn_ >>= 1;
        *sn >>= 1;
    }
}

/// Whether `proof` proves leaf `leaf` at `index` in the tree of `size`
/// leaves whose root is `root` (RFC 9162, section 2.1.3.2).
pub fn verify_inclusion(index: u64, size: u64, leaf: &Hash, proof: &[Hash], root: &Hash) -> bool {
    if index >= size || proof.len() > MAX_PROOF_HASHES {
        return false;
    }
    let (mut fn_, mut sn, mut r) = (index, size - 1, *leaf);
    for p in proof {
        if sn == 0 {
            return false;
        }
        if fn_ & 1 == 1 || fn_ == sn {
            r = node_hash(p, &r);
            shift_to_set_bit(&mut fn_, &mut sn);
        } else {
            r = node_hash(&r, p);
        }
        fn_ >>= 1;
        sn >>= 1;
    }
    sn == 0 && r == *root
}

/// Whether `proof` proves the tree of `old` leaves whose root is
/// `old_root` a prefix of the tree of `new` leaves whose root is
/// `new_root` (RFC 9162, section 2.1.4.2). From the empty tree, and
/// between equal sizes, the proof is empty (and the roots equal).
pub fn verify_consistency(
    old: u64,
    new: u64,
    old_root: &Hash,
    new_root: &Hash,
    proof: &[Hash],
) -> bool {
    if old > new || proof.len() > MAX_PROOF_HASHES {
        return false;
    }
    if old == 0 || old == new {
        return proof.is_empty() && (old == 0 || old_root == new_root);
    }
    let Some((first, rest)) = proof.split_first() else {
        return false;
    };
    // A power of two: the old root is the proof's first node.
    let (start, rest) = if old.is_power_of_two() {
        (old_root, proof)
    } else {
        (first, rest)
    };
    let (mut fn_, mut sn) = (old - 1, new - 1);
    while fn_ & 1 == 1 {
        fn_ >>= 1;
        sn >>= 1;
    }
    let (mut fr, mut sr) = (*start, *start);
    for c in rest {
        if sn == 0 {
            return false;
        }
        if fn_ & 1 == 1 || fn_ == sn {
            fr = node_hash(c, &fr);
            sr = node_hash(c, &sr);
            shift_to_set_bit(&mut fn_, &mut sn);
        } else {
            sr = node_hash(&sr, c);
        }
        fn_ >>= 1;
        sn >>= 1;
    }
    sn == 0 && fr == *old_root && sr == *new_root
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 6962's definition, leaf by leaf: the oracle of the stored tree.
    fn mth(leaves: &[Hash]) -> Hash {
        match leaves.len() {
            0 => Sha256::digest([]).into(),
            1 => leaves[0],
            n => {
                let k = split(n as u64) as usize;
                node_hash(&mth(&leaves[..k]), &mth(&leaves[k..]))
            }
        }
    }

    #[test]
    fn every_proof_written_verifies_and_none_altered_does() {
        let leaves: Vec<Hash> = (0..40)
            .map(|i| leaf_hash(format!("leaf {i}").as_bytes()))
            .collect();
        let tree = Tree::from_leaves(leaves.iter().copied());
        for size in 1..=40u64 {
            let root = tree.root(size).unwrap();
            assert_eq!(root, mth(&leaves[..size as usize]));
            for i in 0..size {
                let leaf = &leaves[i as usize];
                let mut proof = tree.inclusion_proof(i, size).unwrap();
                assert!(verify_inclusion(i, size, leaf, &proof, &root));
                assert!(!verify_inclusion(i, size, &leaves[0], &proof, &root) || i == 0);
                for k in 0..proof.len() {
                    proof[k][0] ^= 1;
                    assert!(!verify_inclusion(i, size, leaf, &proof, &root));
                    proof[k][0] ^= 1;
                }
            }
            for old in 0..=size {
                let old_root = tree.root(old).unwrap();
                let mut proof = tree.consistency_proof(old, size).unwrap();
                assert!(verify_consistency(old, size, &old_root, &root, &proof));
                for k in 0..proof.len() {
                    proof[k][0] ^= 1;
                    assert!(!verify_consistency(old, size, &old_root, &root, &proof));
                    proof[k][0] ^= 1;
                }
                if old > 0 && old < size {
                    let other = tree.root(old + 1).unwrap();
                    assert!(!verify_consistency(old, size, &other, &root, &proof));
                }
            }
        }
        assert!(tree.inclusion_proof(40, 40).is_none());
        assert!(tree.inclusion_proof(3, 41).is_none());
        assert!(tree.consistency_proof(41, 40).is_none());
        assert!(tree.root(41).is_none());
    }

    #[test]
    fn a_frontier_has_every_root_and_restarts_from_its_hashes() {
        let leaves: Vec<Hash> = (0..300)
            .map(|i| leaf_hash(format!("leaf {i}").as_bytes()))
            .collect();
        let mut frontier = Frontier::new();
        assert_eq!(frontier.root(), mth(&[]));
        for (i, leaf) in leaves.iter().enumerate() {
            frontier.push(*leaf);
            assert_eq!(frontier.root(), mth(&leaves[..=i]), "{i}");
            let again = Frontier::from_hashes(frontier.size(), frontier.hashes().to_vec());
            assert_eq!(again.as_ref(), Some(&frontier));
        }
        assert_eq!(Tree::from_leaves(leaves.iter().copied()).leaves(), leaves);
        assert!(Frontier::from_hashes(3, vec![leaves[0]]).is_none());
    }
}
