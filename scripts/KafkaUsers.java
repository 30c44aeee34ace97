import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The Kafka users of deploy/k8s on the local broker (PMEDIA_KAFKA_ACLS=1 ./pmedia up; docs/local-stack.md), run with
 * the broker's own jars (Jackson's YAML reader comes with them):
 *
 * <pre>
 *   java -cp '.pmedia/lib/kafka/*' scripts/KafkaUsers.java credentials MANIFESTS CREDENTIALS_DIR
 *   java -cp '.pmedia/lib/kafka/*' scripts/KafkaUsers.java apply MANIFESTS CREDENTIALS_DIR BOOTSTRAP
 * </pre>
 *
 * MANIFESTS is a directory searched for the YAML of the cluster (deploy/k8s/base): its {@code KafkaUser},
 * {@code KafkaTopic} and {@code Deployment} objects are the only source of what follows, so the local broker
 * enforces what Strimzi's User Operator would.
 * <p>
 * {@code credentials} makes sure CREDENTIALS_DIR (mode 700) holds one client configuration per principal, mode 600,
 * with a password generated once: {@code admin.properties} (the super user of the admin tooling, SASL/PLAIN) and
 * {@code <KafkaUser>.properties} for every KafkaUser (SCRAM-SHA-512, what the user's Strimzi Secret holds), plus
 * {@code broker-listeners.properties}, the broker's side of SASL (its own principal and the admin's). It prints which
 * service runs as which KafkaUser, one {@code SERVICE ROLE USER} line per Deployment that reads a KafkaUser's Secret
 * into {@code KAFKA_SASL_JAAS_CONFIG} (SERVICE from its image, ROLE its {@code PMEDIA_MEDIA_ROLE} or {@code -}).
 * <p>
 * {@code apply} then, as the admin: creates every KafkaTopic's topic with its partitions and configuration (one
 * replica; a topic with fewer partitions grows, none shrinks), sets every KafkaUser's SCRAM credential and deletes
 * the credentials of users no KafkaUser names, and makes the broker's ACLs exactly the KafkaUsers' ACLs (any other is
 * deleted). It prints one summary line. Neither command ever prints a password.
 */
public class KafkaUsers {

    static final String ADMIN = "admin";
    static final String BROKER = "broker";
    private static final ScramMechanism SCRAM = ScramMechanism.SCRAM_SHA_512;
    private static final int SCRAM_ITERATIONS = 4096;
    private static final Pattern PASSWORD = Pattern.compile("password=\"([^\"]*)\"");
    private static final ObjectReader YAML = new ObjectMapper(new YAMLFactory()).readerFor(JsonNode.class);

    public static void main(String[] args) throws Exception {
        if (args.length < 3 || !("credentials".equals(args[0]) && args.length == 3
                || "apply".equals(args[0]) && args.length == 4)) {
            System.err.println("usage: KafkaUsers credentials MANIFESTS CREDENTIALS_DIR"
                    + " | apply MANIFESTS CREDENTIALS_DIR BOOTSTRAP");
            System.exit(2);
        }
        Manifests manifests = Manifests.read(Path.of(args[1]));
        Path credentials = Path.of(args[2]);
        try {
            if ("credentials".equals(args[0])) {
                credentials(manifests, credentials);
            } else {
                apply(manifests, credentials, args[3]);
            }
        } catch (IllegalStateException e) {
            System.err.println(e.getMessage());
            System.exit(1);
        }
    }

    // --- credentials ----------------------------------------------------------------------------------------------

    static void credentials(Manifests manifests, Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        String admin = ensure(dir, ADMIN, "PLAIN", "org.apache.kafka.common.security.plain.PlainLoginModule");
        String broker = existingPassword(dir.resolve("broker-listeners.properties"));
        if (broker == null) {
            broker = newPassword();
        }
        for (String user : manifests.users.keySet()) {
            ensure(dir, user, "SCRAM-SHA-512", "org.apache.kafka.common.security.scram.ScramLoginModule");
        }
        String plain = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + BROKER
                + "\" password=\"" + broker + "\" user_" + BROKER + "=\"" + broker + "\"";
        write(dir.resolve("broker-listeners.properties"), """
                # The broker's side of SASL on the local stack (generated by ./pmedia up; never in git): its own
                # principal (User:broker) on both listeners, and the admin tooling's (User:admin) on the client one.
                # The KafkaUsers authenticate with SCRAM credentials the broker keeps in its metadata.
                listener.name.client.plain.sasl.jaas.config=%s user_%s="%s";
                listener.name.controller.plain.sasl.jaas.config=%s;
                """.formatted(plain, ADMIN, admin, plain));
        for (Client client : manifests.clients) {
            System.out.println(client.service + " " + client.role + " " + client.user);
        }
    }

    /** The password of PRINCIPAL's client configuration, written first when it is missing. */
    private static String ensure(Path dir, String principal, String mechanism, String loginModule)
            throws IOException {
        Path file = dir.resolve(principal + ".properties");
        String password = existingPassword(file);
        if (password != null) {
            return password;
        }
        password = newPassword();
        write(file, """
                # %s on the local broker (generated by ./pmedia up from deploy/k8s; never in git, never logged)
                security.protocol=SASL_PLAINTEXT
                sasl.mechanism=%s
                sasl.jaas.config=%s required username="%s" password="%s";
                """.formatted(principal, mechanism, loginModule, principal, password));
        return password;
    }

    private static String existingPassword(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        Matcher matcher = PASSWORD.matcher(Files.readString(file));
        return matcher.find() ? matcher.group(1) : null;
    }

    private static String newPassword() {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** Writes through a file that is mode 600 before it holds anything, then moves it in place. */
    private static void write(Path file, String content) throws IOException {
        Path tmp = Files.createTempFile(file.getParent(), ".tmp", ".properties",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, content);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    // --- apply ----------------------------------------------------------------------------------------------------

    static void apply(Manifests manifests, Path dir, String bootstrap) throws Exception {
        Properties settings = new Properties();
        try (var in = Files.newInputStream(dir.resolve(ADMIN + ".properties"))) {
            settings.load(in);
        }
        settings.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        settings.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
        try (Admin admin = Admin.create(settings)) {
            String topics = topics(admin, manifests.topics);
            String users = scram(admin, manifests.users.keySet(), dir);
            String acls = acls(admin, manifests.acls());
            System.out.println("kafka: " + topics + "; " + users + "; " + acls + " (from the KafkaUser and KafkaTopic "
                    + "objects of " + manifests.root + ")");
        }
    }

    private static String topics(Admin admin, List<Topic> topics) throws Exception {
        Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
        List<NewTopic> missing = new ArrayList<>();
        for (Topic topic : topics) {
            if (!existing.contains(topic.name)) {
                missing.add(new NewTopic(topic.name, topic.partitions, (short) 1).configs(topic.config));
            }
        }
        if (!missing.isEmpty()) {
            admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
        }
        Map<String, NewPartitions> grow = new TreeMap<>();
        List<String> present = topics.stream().map(t -> t.name).filter(existing::contains).toList();
        Map<String, TopicDescription> described = present.isEmpty() ? Map.of()
                : admin.describeTopics(present).allTopicNames().get(30, TimeUnit.SECONDS);
        for (Topic topic : topics) {
            TopicDescription description = described.get(topic.name);
            if (description != null && description.partitions().size() < topic.partitions) {
                grow.put(topic.name, NewPartitions.increaseTo(topic.partitions));
            }
        }
        if (!grow.isEmpty()) {
            admin.createPartitions(grow).all().get(30, TimeUnit.SECONDS);
        }
        return topics.size() + " topics (" + missing.size() + " created, " + grow.size() + " grown)";
    }

    private static String scram(Admin admin, Set<String> users, Path dir) throws Exception {
        List<UserScramCredentialAlteration> alterations = new ArrayList<>();
        for (String user : users) {
            String password = existingPassword(dir.resolve(user + ".properties"));
            if (password == null) {
                throw new IllegalStateException("no credentials for " + user + " in " + dir + " (run credentials)");
            }
            alterations.add(new UserScramCredentialUpsertion(user, new ScramCredentialInfo(SCRAM, SCRAM_ITERATIONS),
                    password));
        }
        int deleted = 0;
        for (var entry : admin.describeUserScramCredentials().all().get(30, TimeUnit.SECONDS).entrySet()) {
            if (!users.contains(entry.getKey())) {
                for (ScramCredentialInfo info : entry.getValue().credentialInfos()) {
                    alterations.add(new UserScramCredentialDeletion(entry.getKey(), info.mechanism()));
                }
                deleted++;
            }
        }
        admin.alterUserScramCredentials(alterations).all().get(30, TimeUnit.SECONDS);
        return users.size() + " SCRAM users" + (deleted > 0 ? " (" + deleted + " no KafkaUser names deleted)" : "");
    }

    private static String acls(Admin admin, Set<AclBinding> wanted) throws Exception {
        Collection<AclBinding> existing = admin.describeAcls(AclBindingFilter.ANY).values().get(30, TimeUnit.SECONDS);
        List<AclBindingFilter> stale = existing.stream().filter(binding -> !wanted.contains(binding))
                .map(AclBinding::toFilter).toList();
        List<AclBinding> missing = wanted.stream().filter(binding -> !existing.contains(binding)).toList();
        if (!stale.isEmpty()) {
            admin.deleteAcls(stale).all().get(30, TimeUnit.SECONDS);
        }
        if (!missing.isEmpty()) {
            admin.createAcls(missing).all().get(30, TimeUnit.SECONDS);
        }
        return wanted.size() + " ACLs (" + missing.size() + " added, " + stale.size() + " removed)";
    }

    // --- the manifests --------------------------------------------------------------------------------------------

    record Acl(ResourceType type, String name, PatternType pattern, AclOperation operation) {
    }

    record Topic(String name, int partitions, Map<String, String> config) {
    }

    /** A Deployment reading a KafkaUser's Secret: SERVICE from its image, ROLE its PMEDIA_MEDIA_ROLE or "-". */
    record Client(String service, String role, String user) {
    }

    record Manifests(Path root, Map<String, List<Acl>> users, List<Topic> topics, List<Client> clients) {

        static Manifests read(Path root) throws IOException {
            Map<String, List<Acl>> users = new TreeMap<>();
            List<Topic> topics = new ArrayList<>();
            List<JsonNode> deployments = new ArrayList<>();
            List<Path> files;
            try (Stream<Path> walk = Files.walk(root)) {
                files = walk.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).sorted()
                        .toList();
            }
            for (Path file : files) {
                for (JsonNode object : documents(file)) {
                    switch (object.path("kind").asText()) {
                        case "KafkaUser" -> users.put(object.path("metadata").path("name").asText(), acls(object));
                        case "KafkaTopic" -> topics.add(topic(object));
                        case "Deployment" -> deployments.add(object);
                        default -> {
                        }
                    }
                }
            }
            if (users.isEmpty()) {
                throw new IllegalStateException("no KafkaUser object under " + root);
            }
            List<Client> clients = new ArrayList<>();
            for (JsonNode deployment : deployments) {
                for (JsonNode container : deployment.path("spec").path("template").path("spec").path("containers")) {
                    Client client = client(container, users.keySet());
                    if (client != null) {
                        clients.add(client);
                    }
                }
            }
            return new Manifests(root, users, topics, clients);
        }

        Set<AclBinding> acls() {
            Set<AclBinding> bindings = new HashSet<>();
            users.forEach((user, acls) -> {
                for (Acl acl : acls) {
                    bindings.add(new AclBinding(new ResourcePattern(acl.type, acl.name, acl.pattern),
                            new AccessControlEntry("User:" + user, "*", acl.operation, AclPermissionType.ALLOW)));
                }
            });
            return bindings;
        }

        private static List<JsonNode> documents(Path file) throws IOException {
            List<JsonNode> documents = new ArrayList<>();
            try (var reader = Files.newBufferedReader(file);
                    MappingIterator<JsonNode> iterator = YAML.readValues(reader)) {
                while (iterator.hasNext()) {
                    JsonNode node = iterator.next();
                    if (node != null && node.isObject()) {
                        documents.add(node);
                    }
                }
            }
            return documents;
        }

        /** Strimzi's simple authorization: each rule's resource and operations (allow, any host). */
        private static List<Acl> acls(JsonNode user) {
            String name = user.path("metadata").path("name").asText();
            JsonNode authorization = user.path("spec").path("authorization");
            if (!"simple".equals(authorization.path("type").asText())) {
                throw new IllegalStateException("KafkaUser " + name + ": only authorization type simple is known");
            }
            List<Acl> acls = new ArrayList<>();
            for (JsonNode rule : authorization.path("acls")) {
                if (!"allow".equalsIgnoreCase(rule.path("type").asText("allow"))) {
                    throw new IllegalStateException("KafkaUser " + name + ": only allow rules are known");
                }
                JsonNode resource = rule.path("resource");
                ResourceType type = switch (resource.path("type").asText()) {
                    case "topic" -> ResourceType.TOPIC;
                    case "group" -> ResourceType.GROUP;
                    case "cluster" -> ResourceType.CLUSTER;
                    case "transactionalId" -> ResourceType.TRANSACTIONAL_ID;
                    default -> throw new IllegalStateException("KafkaUser " + name + ": unknown resource type "
                            + resource.path("type"));
                };
                String resourceName = type == ResourceType.CLUSTER ? "kafka-cluster" : resource.path("name").asText();
                PatternType pattern = "prefix".equals(resource.path("patternType").asText("literal"))
                        ? PatternType.PREFIXED : PatternType.LITERAL;
                List<String> operations = new ArrayList<>();
                rule.path("operations").forEach(operation -> operations.add(operation.asText()));
                if (rule.has("operation")) {
                    operations.add(rule.path("operation").asText());
                }
                for (String operation : operations) {
                    acls.add(new Acl(type, resourceName, pattern, operation(name, operation)));
                }
            }
            return acls;
        }

        /** Strimzi spells operations in camel case (IdempotentWrite); Kafka in upper snake case. */
        private static AclOperation operation(String user, String operation) {
            String snake = operation.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
            try {
                return AclOperation.valueOf(snake);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("KafkaUser " + user + ": unknown operation " + operation);
            }
        }

        private static Topic topic(JsonNode object) {
            JsonNode spec = object.path("spec");
            String name = spec.path("topicName").asText(object.path("metadata").path("name").asText());
            Map<String, String> config = new LinkedHashMap<>();
            spec.path("config").properties().forEach(field -> config.put(field.getKey(), field.getValue().asText()));
            return new Topic(name, spec.path("partitions").asInt(1), config);
        }

        /** The container's KafkaUser: the Secret its KAFKA_SASL_JAAS_CONFIG comes from (Strimzi names it so). */
        private static Client client(JsonNode container, Set<String> users) {
            String user = null;
            String role = "-";
            for (JsonNode variable : container.path("env")) {
                String variableName = variable.path("name").asText();
                if ("KAFKA_SASL_JAAS_CONFIG".equals(variableName)) {
                    user = variable.path("valueFrom").path("secretKeyRef").path("name").asText(null);
                } else if ("PMEDIA_MEDIA_ROLE".equals(variableName)) {
                    role = variable.path("value").asText("-");
                }
            }
            if (user == null) {
                return null;
            }
            if (!users.contains(user)) {
                throw new IllegalStateException("container " + container.path("name").asText() + " reads the Secret "
                        + user + ", which no KafkaUser makes");
            }
            String image = container.path("image").asText();
            String repository = image.replaceAll("[@:][^/]*$", "");
            String service = repository.substring(repository.lastIndexOf('/') + 1).replaceAll("-service$", "");
            return new Client(service, role, user);
        }
    }

    static {
        // Kafka's clients log through slf4j; the launcher's classpath has slf4j-simple: errors only.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
    }
}
