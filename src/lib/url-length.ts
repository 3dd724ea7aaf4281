// Longest URL accepted, given or redirected to (PDF URLs, webhook URLs): the common limit of
// browsers and CDNs. Here, below limits.ts, because the SSRF guard (safe-fetch.ts) enforces it and
// lib/ imports nothing of ours; limits.ts shows it in the table of every limit.
export const MAX_URL_LENGTH = 2048
