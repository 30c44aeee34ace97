package io.pmedia.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Points a service's tests at a real PostgreSQL database of its own ({@code initArgs: database=pmedia_x_test}),
 * creating the role and database when they are missing, and has Flyway rebuild the schema from the migrations at
 * start so every run begins empty. Server and credentials come from {@code PMEDIA_DB_*} (defaults: the local
 * server on 127.0.0.1:5432, role pmedia/pmedia). {@code PMEDIA_TEST_DB_SUFFIX} (letters, digits, underscores) is
 * appended to every test database name, so that two checkouts can run their suites on one server at once. With
 * {@code initArgs: outages=true} the service reaches the database through a {@link DatabaseOutage} proxy that tests
 * can cut.
 */
public class PostgresTestResource implements QuarkusTestResourceLifecycleManager {

    private String database;
    private boolean outages;
    private DatabaseOutage proxy;

    @Override
    public void init(Map<String, String> initArgs) {
        database = initArgs.getOrDefault("database", "pmedia_test");
        outages = Boolean.parseBoolean(initArgs.getOrDefault("outages", "false"));
        if (!database.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("database name must be a plain identifier: " + database);
        }
    }

    @Override
    public Map<String, String> start() {
        TestDatabase server = TestDatabase.fromEnvironment();
        server.ensureDatabase(server.name(database));
        TestDatabase db = server;
        if (outages) {
            proxy = new DatabaseOutage(server.host(), server.port());
            db = new TestDatabase("127.0.0.1", proxy.port(), server.user(), server.password());
        }
        return Map.of(
                "quarkus.datasource.reactive.url", db.reactiveUrl(database),
                "quarkus.datasource.jdbc.url", db.jdbcUrl(database),
                // The outbox relay LISTENs on the same test database (in a cluster: PostgreSQL itself, not the pooler).
                "pmedia.outbox.listen-url", db.reactiveUrl(database),
                "quarkus.datasource.username", db.user(),
                "quarkus.datasource.password", db.password(),
                "quarkus.flyway.clean-disabled", "false",
                "quarkus.flyway.clean-at-start", "true",
                "quarkus.flyway.migrate-at-start", "true");
    }

    @Override
    public void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    /** The test database server; also used by tests that read tables directly. */
    public record TestDatabase(String host, int port, String user, String password) {

        public static TestDatabase fromEnvironment() {
            return new TestDatabase(env("PMEDIA_DB_HOST", "127.0.0.1"),
                    Integer.parseInt(env("PMEDIA_DB_PORT", "5432")), env("PMEDIA_DB_USER", "pmedia"),
                    env("PMEDIA_DB_PASSWORD", "pmedia"));
        }

        /** The name a test database has on the server: {@code database} plus {@code PMEDIA_TEST_DB_SUFFIX}. */
        public String name(String database) {
            String suffix = env("PMEDIA_TEST_DB_SUFFIX", "");
            if (!suffix.matches("[a-z0-9_]*")) {
                throw new IllegalArgumentException("PMEDIA_TEST_DB_SUFFIX must be lower-case letters, digits, _");
            }
            return database.endsWith(suffix) ? database : database + suffix;
        }

        public String jdbcUrl(String database) {
            return serverUrl(name(database));
        }

        private String serverUrl(String database) {
            return "jdbc:postgresql://" + host + ":" + port + "/" + database;
        }

        public String reactiveUrl(String database) {
            return "postgresql://" + host + ":" + port + "/" + name(database);
        }

        public Connection connect(String database) throws SQLException {
            return DriverManager.getConnection(jdbcUrl(database), user, password);
        }

        void ensureDatabase(String database) {
            try (Connection admin = adminConnection()) {
                boolean exists;
                try (var statement = admin.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
                    statement.setString(1, database);
                    exists = statement.executeQuery().next();
                }
                if (!exists) {
                    try (var statement = admin.createStatement()) {
                        statement.execute("CREATE DATABASE " + database + " OWNER " + user);
                    }
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot prepare test database " + database + " on " + host + ":"
                        + port + " (run ./pmedia test, which sets PostgreSQL up): " + e.getMessage(), e);
            }
        }

        /**
         * A connection allowed to create databases: the test role itself, or, on a trust-auth server where the
         * role does not exist yet, the postgres superuser, which then creates the role.
         */
        private Connection adminConnection() throws SQLException {
            try {
                return DriverManager.getConnection(serverUrl("postgres"), user, password);
            } catch (SQLException asRole) {
                Connection superuser;
                try {
                    superuser = DriverManager.getConnection(serverUrl("postgres"), "postgres", "");
                } catch (SQLException e) {
                    asRole.addSuppressed(e);
                    throw asRole;
                }
                try (var statement = superuser.createStatement()) {
                    statement.execute("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '" + user
                            + "') THEN CREATE ROLE " + user + " LOGIN CREATEDB PASSWORD '" + password.replace("'",
                                    "''")
                            + "'; END IF; END $$");
                }
                return superuser;
            }
        }

        private static String env(String name, String fallback) {
            String value = System.getenv(name);
            return value == null || value.isBlank() ? fallback : value;
        }
    }
}
