package io.pmedia.examples;

/**
 * The examples' settings, from the environment: against the local stack, {@code set -a; . .pmedia/local.env; set +a}
 * gives them all (the demo vendor's credentials); a vendor sets its own.
 */
final class Env {

    private Env() {
    }

    static String get(String name) {
        String value = System.getenv(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(name + " is not set (locally: set -a; . .pmedia/local.env; set +a)");
        }
        return value;
    }
}
