#!/usr/bin/env node
// The svcctl CLI (see src/cli/svcctl.ts); runs the compiled code (`npm run build` first).
require('../dist/src/cli/svcctl.js');
