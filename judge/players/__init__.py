"""Players behind one interface: bot processes, the optimal player, a human at the terminal."""
