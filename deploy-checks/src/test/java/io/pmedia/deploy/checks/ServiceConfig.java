package io.pmedia.deploy.checks;

import java.io.IOException;
import java.io.StringReader;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a workload's code says about itself, read from its module's application.properties: ports, limits, the Kafka
 * channels it consumes and produces. The manifests must agree with it.
 */
record ServiceConfig(String workload, String module, Properties properties, Set<String> channels) {

    /** Deployment name -> module, and which of the module's messaging channels that Deployment runs. */
    private static final Map<String, ServiceConfig> WORKLOADS = new LinkedHashMap<>();

    static {
        // media-service runs in two roles (PMEDIA_MEDIA_ROLE): the API consumes results, the workers render.
        add("gateway", "gateway-service", Set.of());
        add("media-api", "media-service", Set.of("render-results-in"));
        add("media-worker", "media-service", Set.of("render-results"));
        add("batch", "batch-service", null);
        add("vton", "vton-service", null);
        add("campaign", "campaign-service", null);
        add("notifier", "notifier-service", null);
    }

    private static void add(String workload, String module, Set<String> channels) {
        Properties properties = load(module);
        Set<String> all = new TreeSet<>();
        Matcher channel = Pattern.compile("^mp\\.messaging\\.(?:incoming|outgoing)\\.([^.]+)\\.topic$").matcher("");
        for (String key : properties.stringPropertyNames()) {
            if (channel.reset(key).matches()) {
                all.add(channel.group(1));
            }
        }
        if (channels != null) {
            all.retainAll(channels);
        }
        WORKLOADS.put(workload, new ServiceConfig(workload, module, properties, all));
    }

    static Map<String, ServiceConfig> all() {
        return WORKLOADS;
    }

    static ServiceConfig of(String workload) {
        ServiceConfig config = WORKLOADS.get(workload);
        if (config == null) {
            throw new AssertionError("Deployment " + workload + " is not a known pmedia workload (ServiceConfig)");
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

    /** Topic -> consumer group of every incoming channel this workload runs. */
    Map<String, String> consumed() {
        Map<String, String> topics = new LinkedHashMap<>();
        for (String channel : channels) {
            String prefix = "mp.messaging.incoming." + channel + ".";
            if (properties.containsKey(prefix + "topic")) {
                topics.put(properties.getProperty(prefix + "topic"), properties.getProperty(prefix + "group.id"));
            }
        }
        return topics;
    }

    /** Topics of every outgoing channel this workload runs. */
    Set<String> produced() {
        Set<String> topics = new TreeSet<>();
        for (String channel : channels) {
            String topic = properties.getProperty("mp.messaging.outgoing." + channel + ".topic");
            if (topic != null) {
                topics.add(topic);
            }
        }
        return topics;
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

    private static Properties load(String module) {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(Manifests.read(
                    Manifests.root().resolve(module).resolve("src/main/resources/application.properties"))));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
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
