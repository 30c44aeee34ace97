// The examples' settings, from the environment: against the local stack, `set -a; . .pmedia/local.env; set +a`
// gives them all (the demo vendor's credentials); a vendor sets its own.
export function env(name: string): string {
    const value = process.env[name];
    if (!value) {
        throw new Error(`${name} is not set (locally: set -a; . .pmedia/local.env; set +a)`);
    }
    return value;
}

/** Whether this module is the program node was started with (so examples run as scripts and import as modules). */
export function isMain(url: string): boolean {
    return process.argv[1] !== undefined && new URL(url).pathname === process.argv[1];
}
