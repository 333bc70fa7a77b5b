//! Unit tests of the executor's modes and the units' checks, without the binary.
