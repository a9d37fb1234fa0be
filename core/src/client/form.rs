//! form (in progress).
