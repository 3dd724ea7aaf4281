#!/usr/bin/env node
// The `paraph` binary: runs the TypeScript sources through tsx, so a checkout works after `npm ci`.
import { register } from 'tsx/esm/api'

register()
await import('../src/cli/main.ts')
