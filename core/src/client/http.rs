//! http (in progress).
