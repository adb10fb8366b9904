//! trax
