#!/usr/bin/env node
// The command npm links: the compiled program (npm run build -w mcp).
import '../dist/bin.js';
