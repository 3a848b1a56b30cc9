//! Night Wizard 3rd Fortresses: area/gate graph, gates, population, solvability.
