//! nantong
