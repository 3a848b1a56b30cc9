//! NW3 fortress area maps as SVG (being written).
