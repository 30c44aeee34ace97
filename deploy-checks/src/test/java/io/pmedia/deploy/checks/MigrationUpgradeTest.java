package io.pmedia.deploy.checks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The expand/contract rule (docs/operations.md, "Migrations"), tested: during a rolling upgrade the previous release's
 * pods run against the new schema. For every service with migrations, this applies the migrations of the previous
 * commit (the parent of the last commit that changed the service's migrations, or {@code -Dpmedia.upgrade.from=REF}
 * for a release tag) to a fresh database, then the migrations of this tree on top (as the migration Job would: a
 * released migration edited since fails Flyway's checksum), and then asks PostgreSQL to prepare every SQL statement
 * of the previous commit's code (text blocks and string literals of its sources that start with SELECT, INSERT,
 * UPDATE, DELETE or WITH) against the new schema. A statement that prepared against the old schema must prepare against
 * the new one: a dropped or renamed table or column, or a changed type that breaks a statement, fails here.
 *
 * <p>What it does not prove: that a {@code SELECT *} still maps (a dropped column prepares), that Hibernate's entity
 * mappings of the previous code match (they are not SQL text), or the semantics of the old writes (a new
 * {@code NOT NULL} column without a default fails only when the old INSERT runs; the rule forbids it). It needs
 * PostgreSQL (PMEDIA_DB_* as in the suite, a role that may create databases) and the git history; without either it
 * is skipped.
 */
class MigrationUpgradeTest {

    static final Path ROOT = Manifests.root();
    static final String OUTBOX = "platform-common/src/main/resources/db/outbox";
    /**
     * Migrations are released from this commit on: before it, main renumbered released migrations (1d15d58 moved
     * gateway's V4, media's V6 and batch's V4 up by one to insert new ones), which no deployed database could follow
     * (docs/decisions.md, "Migrations as Jobs, expand/contract tested"). An upgrade is tested from no earlier commit.
     */
    static final String RELEASED_FROM = "1d15d58";
    static final Pattern SQL = Pattern.compile("^(SELECT|INSERT|UPDATE|DELETE|WITH)\\s", Pattern.CASE_INSENSITIVE);

    static String host;

    @BeforeAll
    static void database() {
        host = System.getenv("PMEDIA_DB_HOST");
        assumeTrue(host != null, "PMEDIA_DB_HOST is not set (./pmedia test sets it)");
        assumeTrue(git("rev-parse", "HEAD") != null, "no git history");
    }

    /** Every service module with Flyway migrations. */
    static List<String> modules() {
        return ServiceConfig.all().values().stream().map(ServiceConfig::module).distinct()
                .filter(m -> Files.isDirectory(ROOT.resolve(m).resolve("src/main/resources/db/migration"))).toList();
    }

    @ParameterizedTest
    @MethodSource("modules")
    void thePreviousCodesSqlStillPreparesAgainstTheNewSchema(String module, @TempDir Path tmp) throws Exception {
        String from = previous(module);
        assumeTrue(git("cat-file", "-e", from + ":" + module + "/src/main/resources/db/migration") != null,
                module + " did not exist at " + from + ": nothing to upgrade from");
        Result result = upgrade(module, from, tmp, null);
        System.out.printf("%s: %d statements of %s prepared against the new schema; %d did not prepare against the"
                + " old one either, so they are not checked:%n", module, result.checked(), from.substring(0, 10),
                result.skipped().size());
        result.skipped().forEach(s -> System.out.println("  " + s));
        assertThat(result.checked()).as("%s: statements checked", module).isPositive();
        assertThat(result.broken()).as("%s: statements of %s that the new schema breaks", module, from).isEmpty();
    }

    /** The check bites: a contract step (a column the old code names, renamed) in the new migrations is found. */
    @Test
    void aRenamedColumnIsCaught(@TempDir Path tmp) throws Exception {
        Path extra = Files.createDirectories(tmp.resolve("extra"));
        Files.writeString(extra.resolve("V9999__contract_too_early.sql"),
                "ALTER TABLE webhook_delivery RENAME COLUMN next_attempt_at TO next_try_at;\n");
        Result result = upgrade("notifier-service", previous("notifier-service"), tmp, extra);
        assertThat(result.broken()).isNotEmpty()
                .allSatisfy(b -> assertThat(b).contains("next_attempt_at"));
    }

    record Result(int checked, List<String> skipped, List<String> broken) {
    }

    static Result upgrade(String module, String from, Path tmp, Path extra) throws Exception {
        String database = "pmedia_upgrade_" + module.replace("-service", "").replace('-', '_')
                + (extra == null ? "" : "_bite");
        recreate(database);
        String url = "jdbc:postgresql://" + host + ":" + env("PMEDIA_DB_PORT", "5432") + "/" + database;

        Path old = Files.createDirectories(tmp.resolve("old"));
        for (String dir : List.of(module + "/src/main/resources/db/migration", OUTBOX)) {
            for (String file : lines(git("ls-tree", "-r", "--name-only", from, "--", dir))) {
                Files.writeString(old.resolve(file.substring(file.lastIndexOf('/') + 1)),
                        git("show", from + ":" + file));
            }
        }
        migrate(url, "filesystem:" + old);
        Set<String> statements = statements(module, from);
        Map<String, String> before = prepare(url, statements);

        List<String> locations = new ArrayList<>(List.of(
                "filesystem:" + ROOT.resolve(module).resolve("src/main/resources/db/migration"),
                "filesystem:" + ROOT.resolve(OUTBOX)));
        if (extra != null) {
            locations.add("filesystem:" + extra);
        }
        migrate(url, locations.toArray(String[]::new));
        Map<String, String> after = prepare(url, statements);

        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (String sql : statements) {
            if (before.get(sql) != null) {
                continue;
            }
            checked++;
            if (after.get(sql) != null) {
                broken.add(after.get(sql) + "\n    in: " + sql.replaceAll("\\s+", " "));
            }
        }
        List<String> skipped = new ArrayList<>();
        before.forEach((sql, error) -> {
            if (error != null) {
                skipped.add(error + "\n    in: " + sql.replaceAll("\\s+", " "));
            }
        });
        return new Result(checked, skipped, broken);
    }

    /**
     * The main line's state before the last change of the module's migrations (or the outbox's): the first parent of
     * the last first-parent commit that changed them, as a database deployed from main before that change has it; not
     * before {@link #RELEASED_FROM}.
     */
    static String previous(String module) {
        String from = System.getProperty("pmedia.upgrade.from");
        if (from == null || from.isBlank()) {
            String last = git("log", "-1", "--first-parent", "--format=%H", "--",
                    module + "/src/main/resources/db/migration", OUTBOX);
            assumeTrue(last != null && !last.isBlank(), "no history of " + module + "'s migrations");
            from = last.strip() + "^1";
            if (git("merge-base", "--is-ancestor", from, RELEASED_FROM) != null) {
                from = RELEASED_FROM;
            }
        }
        String resolved = git("rev-parse", "--verify", from + "^{commit}");
        assumeTrue(resolved != null, "the history does not hold " + from + " (a shallow clone?)");
        return resolved.strip();
    }

    /** SQL statements of the module's main sources at {@code commit}, placeholders as $n. */
    static Set<String> statements(String module, String commit) {
        Set<String> statements = new LinkedHashSet<>();
        for (String file : lines(git("ls-tree", "-r", "--name-only", commit, "--", module + "/src/main/java"))) {
            if (file.endsWith(".java")) {
                for (String sql : strings(git("show", commit + ":" + file))) {
                    if (SQL.matcher(sql).find() && !sql.contains("%")) {
                        statements.add(placeholders(sql));
                    }
                }
            }
        }
        return statements;
    }

    private static final Pattern TOKEN = Pattern.compile("(?s)\"\"\"[ \\t]*\\n(.*?)\"\"\"|\"((?:[^\"\\\\\\n]|\\\\.)*)\""
            + "|//[^\\n]*|/\\*.*?\\*/|([A-Za-z_][A-Za-z0-9_]*)|(\\+)|(\\s+)|(.)");

    /**
     * The string values a Java source spells: its text blocks and literals, joined where {@code +} concatenates them
     * with each other or with the file's own {@code String} constants (a shared SQL fragment).
     */
    static List<String> strings(String source) {
        record Token(String kind, String text) {
        }
        List<Token> tokens = new ArrayList<>();
        Matcher m = TOKEN.matcher(source);
        while (m.find()) {
            if (m.group(1) != null) {
                tokens.add(new Token("str", m.group(1).stripIndent()));
            } else if (m.group(2) != null) {
                tokens.add(new Token("str", m.group(2).replace("\\\"", "\"").replace("\\n", "\n")));
            } else if (m.group(3) != null) {
                tokens.add(new Token("id", m.group(3)));
            } else if (m.group(4) != null) {
                tokens.add(new Token("+", "+"));
            } else if (m.group(6) != null) {
                tokens.add(new Token("other", m.group(6)));
            }
        }
        Map<String, String> constants = new LinkedHashMap<>();
        List<String> values = new ArrayList<>();
        for (int pass = 0; pass < 2; pass++) {
            values.clear();
            for (int i = 0; i < tokens.size(); i++) {
                Token t = tokens.get(i);
                boolean operand = t.kind().equals("str") || t.kind().equals("id") && constants.containsKey(t.text())
                        && i + 1 < tokens.size() && tokens.get(i + 1).kind().equals("+");
                if (!operand || i > 0 && tokens.get(i - 1).kind().equals("+")) {
                    continue;
                }
                StringBuilder value = new StringBuilder();
                int j = i;
                while (j < tokens.size()) {
                    Token o = tokens.get(j);
                    if (o.kind().equals("str")) {
                        value.append(o.text());
                    } else if (o.kind().equals("id") && constants.containsKey(o.text())) {
                        value.append(constants.get(o.text()));
                    } else {
                        break;
                    }
                    if (j + 1 < tokens.size() && tokens.get(j + 1).kind().equals("+")) {
                        j += 2;
                    } else {
                        j++;
                        break;
                    }
                }
                String joined = value.toString().strip();
                values.add(joined);
                // String NAME = <this expression>; makes a constant.
                if (i >= 3 && tokens.get(i - 1).text().equals("=") && tokens.get(i - 3).text().equals("String")
                        && j < tokens.size() && tokens.get(j).text().equals(";")) {
                    constants.put(tokens.get(i - 2).text(), value.toString());
                }
                i = j - 1;
            }
        }
        return values;
    }

    /** JDBC's ?, Hibernate's ?1 and :name, as PostgreSQL's $n. */
    static String placeholders(String sql) {
        String out = sql.replaceAll("\\?(\\d+)", "\\$$1");
        Map<String, Integer> named = new LinkedHashMap<>();
        Matcher m = Pattern.compile("(?<![:\\w]):([A-Za-z_]\\w*)").matcher(out);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            int n = named.computeIfAbsent(m.group(1), k -> named.size() + 1);
            m.appendReplacement(b, "\\$" + n);
        }
        m.appendTail(b);
        out = b.toString();
        int n = 0;
        StringBuilder q = new StringBuilder();
        for (char c : out.toCharArray()) {
            if (c == '?') {
                q.append('$').append(++n);
            } else {
                q.append(c);
            }
        }
        return q.toString();
    }

    /** Each statement prepared (and deallocated): null where it prepared, else PostgreSQL's message. */
    static Map<String, String> prepare(String url, Set<String> statements) throws SQLException {
        Map<String, String> outcome = new LinkedHashMap<>();
        try (Connection c = connect(url); Statement s = c.createStatement()) {
            c.setAutoCommit(true);
            for (String sql : statements) {
                try {
                    s.execute("PREPARE pmedia_upgrade_check AS " + sql);
                    s.execute("DEALLOCATE pmedia_upgrade_check");
                    outcome.put(sql, null);
                } catch (SQLException e) {
                    outcome.put(sql, e.getMessage().lines().findFirst().orElse(e.toString()));
                }
            }
        }
        return outcome;
    }

    static void migrate(String url, String... locations) {
        Flyway.configure().dataSource(url, env("PMEDIA_DB_USER", "pmedia"), env("PMEDIA_DB_PASSWORD", "pmedia"))
                .locations(locations).load().migrate();
    }

    static void recreate(String database) throws SQLException {
        String url = "jdbc:postgresql://" + host + ":" + env("PMEDIA_DB_PORT", "5432") + "/postgres";
        try (Connection c = connect(url); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            s.execute("CREATE DATABASE " + database);
        }
    }

    static Connection connect(String url) throws SQLException {
        return DriverManager.getConnection(url, env("PMEDIA_DB_USER", "pmedia"), env("PMEDIA_DB_PASSWORD", "pmedia"));
    }

    static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }

    static List<String> lines(String text) {
        return text == null ? List.of() : text.lines().filter(l -> !l.isBlank()).toList();
    }

    /** git's output, or null when it fails. */
    static String git(String... args) {
        List<String> command = new ArrayList<>(List.of("git", "-C", ROOT.toString()));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
