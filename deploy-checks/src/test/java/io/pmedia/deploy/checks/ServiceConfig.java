package io.pmedia.deploy.checks;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.pmedia.events.RenderJob;
import io.pmedia.events.RenderLane;

/**
 * What a workload's code says about itself, read from its module: application.properties (ports, limits, pools, the
 * Kafka channels it consumes and produces, the topics its outbox publishes), the role file of a module that runs in
 * roles ({@code <name>-roles.properties}, the same file the service's role config source applies), and its sources
 * (whether it fetches vendor URLs through the SafeFetcher). The workloads themselves are the reactor's
 * {@code *-service} modules, one per role where a module has roles. Nothing here is a table kept by hand.
 */
record ServiceConfig(String workload, String module, Properties properties) {

    /** The messaging channel the render workers reply on (media-service's RenderWorker emitter). */
    static final String RENDER_REPLY_CHANNEL = "render-results";
    /** The one class through which code fetches URLs (GUIDE: "Everything that fetches a URL goes through it"). */
    static final String FETCHER = "io.pmedia.common.net.SafeFetcher";

    private static final Map<String, ServiceConfig> WORKLOADS = discover();

    /** Deployment name -> its config: every {@code *-service} module of the reactor, once per role. */
    private static Map<String, ServiceConfig> discover() {
        Map<String, ServiceConfig> workloads = new LinkedHashMap<>();
        String pom = Manifests.read(Manifests.root().resolve("pom.xml"));
        Matcher module = Pattern.compile("<module>([a-z-]+-service)</module>").matcher(pom);
        while (module.find()) {
            String name = module.group(1);
            String base = name.substring(0, name.length() - "-service".length());
            Properties properties = load(name, "application.properties");
            Path roles = resources(name).resolve(base + "-roles.properties");
            if (Files.exists(roles)) {
                Properties byRole = load(name, roles.getFileName().toString());
                Set<String> names = new TreeSet<>();
                byRole.stringPropertyNames().forEach(k -> names.add(k.substring(0, k.indexOf('.'))));
                for (String role : names) {
                    Properties merged = new Properties();
                    merged.putAll(properties);
                    String prefix = role + ".";
                    byRole.stringPropertyNames().stream().filter(k -> k.startsWith(prefix))
                            .forEach(k -> merged.setProperty(k.substring(prefix.length()), byRole.getProperty(k)));
                    workloads.put(base + "-" + role, new ServiceConfig(base + "-" + role, name, merged));
                }
            } else {
                workloads.put(base, new ServiceConfig(base, name, properties));
            }
        }
        return workloads;
    }

    static Map<String, ServiceConfig> all() {
        return WORKLOADS;
    }

    static ServiceConfig of(String workload) {
        ServiceConfig config = WORKLOADS.get(workload);
        if (config == null) {
            throw new AssertionError("Deployment " + workload + " is no *-service module (or role) of the reactor");
        }
        return config;
    }

    int managementPort() {
        return Integer.parseInt(required("quarkus.management.port"));
    }

    int httpPort() {
        return Integer.parseInt(required("quarkus.http.port"));
    }

    /** The request body limit in bytes (Quarkus' MemorySize: 1M is 1 MiB). */
    long maxBodyBytes() {
        return bytes(required("quarkus.http.limits.max-body-size"));
    }

    private boolean enabled(String key) {
        return !"false".equalsIgnoreCase(properties.getProperty(key, "true").trim());
    }

    /** The messaging channels of one direction this workload runs (not disabled by its role). */
    private Set<String> channels(String direction) {
        Set<String> channels = new TreeSet<>();
        Matcher channel = Pattern.compile("^mp\\.messaging\\." + direction + "\\.([^.]+)\\.topics?$").matcher("");
        for (String key : properties.stringPropertyNames()) {
            if (channel.reset(key).matches()
                    && enabled("mp.messaging." + direction + "." + channel.group(1) + ".enabled")) {
                channels.add(channel.group(1));
            }
        }
        return channels;
    }

    private Set<String> topicsOf(String direction, String channel) {
        String prefix = "mp.messaging." + direction + "." + channel + ".";
        String topics = properties.getProperty(prefix + "topic", properties.getProperty(prefix + "topics"));
        Set<String> set = new TreeSet<>();
        Arrays.stream(topics.split(",")).map(String::trim).filter(t -> !t.isEmpty()).forEach(set::add);
        return set;
    }

    /** Whether this workload runs media-service's render lanes (plain consumers of both lanes, one group). */
    boolean rendersJobs() {
        return properties.containsKey("pmedia.media.render.lanes.group")
                && enabled("pmedia.media.render.lanes.enabled");
    }

    /** Topic -> consumer groups: every incoming channel it runs, and the render lanes where it runs them. */
    Map<String, Set<String>> consumed() {
        Map<String, Set<String>> topics = new TreeMap<>();
        for (String channel : channels("incoming")) {
            String group = properties.getProperty("mp.messaging.incoming." + channel + ".group.id");
            for (String topic : topicsOf("incoming", channel)) {
                topics.computeIfAbsent(topic, t -> new TreeSet<>()).add(group);
            }
        }
        if (rendersJobs()) {
            String group = properties.getProperty("pmedia.media.render.lanes.group").trim();
            for (RenderLane lane : RenderLane.values()) {
                topics.computeIfAbsent(lane.topic(), t -> new TreeSet<>()).add(group);
            }
        }
        return topics;
    }

    /**
     * Topics it writes: its outgoing channels (the render workers' reply channel writes each job's reply-to, one of
     * RenderJob.REPLY_TOPICS, and only where the lanes run), and its outbox's topics where its relay runs.
     */
    Set<String> produced() {
        Set<String> topics = new TreeSet<>();
        for (String channel : channels("outgoing")) {
            if (channel.equals(RENDER_REPLY_CHANNEL) && properties.containsKey("pmedia.media.render.lanes.group")) {
                if (rendersJobs()) {
                    topics.addAll(RenderJob.REPLY_TOPICS);
                }
            } else {
                topics.addAll(topicsOf("outgoing", channel));
            }
        }
        if (enabled("pmedia.outbox.enabled") && properties.containsKey("pmedia.outbox.topics")) {
            Arrays.stream(properties.getProperty("pmedia.outbox.topics").split(",")).map(String::trim)
                    .forEach(topics::add);
        }
        return topics;
    }

    /** Whether this workload's outbox relay runs (it then LISTENs on a session of its own). */
    boolean relaysOutbox() {
        return enabled("pmedia.outbox.enabled") && properties.containsKey("pmedia.outbox.topics");
    }

    /** Whether the module's code fetches URLs (vendor assets, webhooks, providers): it reaches the internet. */
    boolean fetchesUrls() {
        Path sources = Manifests.root().resolve(module).resolve("src/main/java");
        try (Stream<Path> files = Files.walk(sources)) {
            return files.filter(f -> f.toString().endsWith(".java"))
                    .anyMatch(f -> Manifests.read(f).contains("import " + FETCHER + ";"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A property as the running service sees it: an environment variable of the Deployment named after the key
     * (Quarkus' rule: upper case, every other character an underscore) wins, and {@code ${VAR:default}} expressions
     * are expanded against the same environment.
     */
    String resolve(String key, Map<String, String> env, String fallback) {
        String direct = env.get(key.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_"));
        if (direct != null) {
            return direct;
        }
        String value = properties.getProperty(key);
        return value == null ? fallback : expand(value.trim(), env);
    }

    static String expand(String value, Map<String, String> env) {
        Matcher m = Pattern.compile("\\$\\{([A-Za-z0-9_.]+)(?::((?:[^{}]|\\$\\{[^{}]*\\})*))?\\}").matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement = env.containsKey(m.group(1))
                    ? env.get(m.group(1))
                    : m.group(2) == null ? "" : expand(m.group(2), env);
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    Duration renderTimeLimit() {
        return Duration.ofSeconds(parseSeconds(properties.getProperty("pmedia.media.render.time-limit", "120s")));
    }

    private String required(String key) {
        String value = properties.getProperty(key);
        if (value == null) {
            throw new AssertionError(module + "/application.properties has no " + key);
        }
        return value.trim();
    }

    private static Path resources(String module) {
        return Manifests.root().resolve(module).resolve("src/main/resources");
    }

    private static Properties load(String module, String file) {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(Manifests.read(resources(module).resolve(file))));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        // Test-profile lines are not what a deployment runs.
        properties.stringPropertyNames().stream().filter(k -> k.startsWith("%")).forEach(properties::remove);
        return properties;
    }

    static long bytes(String size) {
        Matcher m = Pattern.compile("(?i)^(\\d+)([KMG]?)$").matcher(size.trim());
        if (!m.matches()) {
            throw new AssertionError("not a size: " + size);
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2).toUpperCase()) {
            case "K" -> n << 10;
            case "M" -> n << 20;
            case "G" -> n << 30;
            default -> n;
        };
    }

    private static long parseSeconds(String value) {
        Matcher m = Pattern.compile("^(\\d+)(s|m)?$").matcher(value.trim());
        if (!m.matches()) {
            return Duration.parse(value.trim()).toSeconds();
        }
        long n = Long.parseLong(m.group(1));
        return "m".equals(m.group(2)) ? n * 60 : n;
    }
}
