/** A bad command line: main prints the message and exits with the usage code (2). */
export class UsageError extends Error {}
