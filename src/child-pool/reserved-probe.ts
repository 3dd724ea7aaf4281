// Prints this process's memory mappings, for memory-limit.ts's nodeReservedBytes: run from the
// sources with the loader flags a child runs with (tests), it shows what they make node reserve.
import { readFileSync } from 'node:fs'

process.stdout.write(readFileSync('/proc/self/maps', 'utf8'))
