//! url (in progress).
