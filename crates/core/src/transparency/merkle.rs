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
fn split(n: usize) -> usize {
    1 << (usize::BITS - 1 - (n - 1).leading_zeros())
}

/// The root hash of the tree whose leaf hashes are `leaves` (the empty
/// tree's is SHA-256 of nothing).
pub fn tree_hash(leaves: &[Hash]) -> Hash {
    match leaves.len() {
        0 => Sha256::digest([]).into(),
        1 => leaves[0],
        n => {
            let k = split(n);
            node_hash(&tree_hash(&leaves[..k]), &tree_hash(&leaves[k..]))
        }
    }
}

/// The inclusion proof of leaf `index` in the tree of `leaves` (RFC 6962
/// PATH); `None` when `index` is not a leaf of it.
pub fn inclusion_proof(leaves: &[Hash], index: usize) -> Option<Vec<Hash>> {
    if index >= leaves.len() {
        return None;
    }
    let mut proof = Vec::new();
    let (mut leaves, mut index) = (leaves, index);
    let mut siblings = Vec::new();
    while leaves.len() > 1 {
        let k = split(leaves.len());
        if index < k {
            siblings.push(tree_hash(&leaves[k..]));
            leaves = &leaves[..k];
        } else {
            siblings.push(tree_hash(&leaves[..k]));
            leaves = &leaves[k..];
            index -= k;
        }
    }
    proof.extend(siblings.into_iter().rev());
    Some(proof)
}

/// The consistency proof from the tree of the first `old` leaves to the
/// tree of `leaves` (RFC 6962 PROOF); empty when `old` is 0 or all of
/// them, `None` when `old` is more.
pub fn consistency_proof(leaves: &[Hash], old: usize) -> Option<Vec<Hash>> {
    if old > leaves.len() {
        return None;
    }
    if old == 0 || old == leaves.len() {
        return Some(Vec::new());
    }
    let mut proof = Vec::new();
    let (mut leaves, mut old, mut whole) = (leaves, old, true);
    while old != leaves.len() {
        let k = split(leaves.len());
        if old <= k {
            proof.push(tree_hash(&leaves[k..]));
            leaves = &leaves[..k];
        } else {
            proof.push(tree_hash(&leaves[..k]));
            leaves = &leaves[k..];
            old -= k;
            whole = false;
        }
    }
    if !whole {
        proof.push(tree_hash(leaves));
    }
    proof.reverse();
    Some(proof)
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

    fn leaves(n: usize) -> Vec<Hash> {
        (0..n)
            .map(|i| leaf_hash(format!("leaf {i}").as_bytes()))
            .collect()
    }

    #[test]
    fn every_proof_written_verifies_and_none_altered_does() {
        let all = leaves(40);
        for size in 1..=all.len() {
            let tree = &all[..size];
            let root = tree_hash(tree);
            for index in 0..size {
                let mut proof = inclusion_proof(tree, index).unwrap();
                let i = index as u64;
                assert!(verify_inclusion(
                    i,
                    size as u64,
                    &tree[index],
                    &proof,
                    &root
                ));
                assert!(!verify_inclusion(i, size as u64, &tree[0], &proof, &root) || index == 0);
                for k in 0..proof.len() {
                    proof[k][0] ^= 1;
                    assert!(!verify_inclusion(
                        i,
                        size as u64,
                        &tree[index],
                        &proof,
                        &root
                    ));
                    proof[k][0] ^= 1;
                }
            }
            for old in 0..=size {
                let old_root = tree_hash(&tree[..old]);
                let mut proof = consistency_proof(tree, old).unwrap();
                let (o, n) = (old as u64, size as u64);
                assert!(
                    verify_consistency(o, n, &old_root, &root, &proof),
                    "{old} {size}"
                );
                for k in 0..proof.len() {
                    proof[k][0] ^= 1;
                    assert!(!verify_consistency(o, n, &old_root, &root, &proof));
                    proof[k][0] ^= 1;
                }
                if old > 0 && old < size {
                    let other = tree_hash(&leaves(old + 1)[1..]);
                    assert!(!verify_consistency(o, n, &other, &root, &proof));
                }
            }
        }
        assert!(inclusion_proof(&all, 40).is_none());
        assert!(consistency_proof(&all, 41).is_none());
    }
}
