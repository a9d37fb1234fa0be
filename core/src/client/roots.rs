//! roots (in progress).
