// Preloaded by tests/package/run (`node --require ./old_glibc.cjs node_check.cjs ...`) when it runs
// Node under an older glibc's own dynamic loader (issue 27 item 8): fails unless this process
// really runs on the glibc named by the environment variable OLD_GLIBC, so that node_check.cjs,
// which follows, loads the Node package's addon and checks its verdicts on that glibc.
'use strict'
const assert = require('node:assert/strict')

const want = process.env.OLD_GLIBC
const runtime = process.report.getReport().header.glibcVersionRuntime
assert.ok(want, 'OLD_GLIBC is not set')
assert.equal(runtime, want, `this process runs on glibc ${runtime}, not the old root's ${want}`)
console.log(`  ok  node ${process.version} runs on glibc ${runtime} (the old root's loader and libc)`)
