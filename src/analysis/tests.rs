//! Unit tests of the analyses against small hand-computed cases, without the binary.
