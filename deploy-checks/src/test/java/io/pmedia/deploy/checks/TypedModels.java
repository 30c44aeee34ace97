package io.pmedia.deploy.checks;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

import io.fabric8.certmanager.api.model.v1.Certificate;
import io.fabric8.certmanager.api.model.v1.Issuer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.PodMonitor;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import io.strimzi.api.kafka.model.kafka.Kafka;
import io.strimzi.api.kafka.model.nodepool.KafkaNodePool;
import io.strimzi.api.kafka.model.topic.KafkaTopic;
import io.strimzi.api.kafka.model.user.KafkaUser;
import io.strimzi.crdgenerator.annotations.PresentInVersions;

/**
 * Binds every rendered object to the typed model of its apiVersion and kind, strictly: unknown fields, wrong types and
 * values outside a closed set fail. The fabric8 and Strimzi models keep unknown fields in an
 * {@code additionalProperties} map instead of refusing them, so after binding, the object graph is walked and any
 * such leftover is reported with its path.
 */
final class TypedModels {

    /** Kinds whose model is TypeScript (KEDA, from npm): checked by {@link KedaObjectsTest}. */
    static final Set<String> CHECKED_BY_TYPESCRIPT = Set.of("keda.sh/v1alpha1/ScaledObject",
            "keda.sh/v1alpha1/TriggerAuthentication");

    static final Map<String, Class<?>> MODELS = Map.ofEntries(
            Map.entry("v1/Namespace", Namespace.class),
            Map.entry("v1/ServiceAccount", ServiceAccount.class),
            Map.entry("v1/Service", Service.class),
            Map.entry("v1/ConfigMap", ConfigMap.class),
            Map.entry("v1/Secret", Secret.class),
            Map.entry("apps/v1/Deployment", Deployment.class),
            Map.entry("batch/v1/Job", Job.class),
            Map.entry("policy/v1/PodDisruptionBudget", PodDisruptionBudget.class),
            Map.entry("networking.k8s.io/v1/NetworkPolicy", NetworkPolicy.class),
            Map.entry("networking.k8s.io/v1/Ingress", Ingress.class),
            Map.entry("autoscaling/v2/HorizontalPodAutoscaler", HorizontalPodAutoscaler.class),
            Map.entry("kafka.strimzi.io/v1/Kafka", Kafka.class),
            Map.entry("kafka.strimzi.io/v1/KafkaNodePool", KafkaNodePool.class),
            Map.entry("kafka.strimzi.io/v1/KafkaTopic", KafkaTopic.class),
            Map.entry("kafka.strimzi.io/v1/KafkaUser", KafkaUser.class),
            Map.entry("cert-manager.io/v1/Issuer", Issuer.class),
            Map.entry("cert-manager.io/v1/Certificate", Certificate.class),
            Map.entry("monitoring.coreos.com/v1/ServiceMonitor", ServiceMonitor.class),
            Map.entry("monitoring.coreos.com/v1/PodMonitor", PodMonitor.class),
            Map.entry("monitoring.coreos.com/v1/PrometheusRule", PrometheusRule.class),
            Map.entry("postgresql.cnpg.io/v1/Cluster", CnpgModel.Cluster.class),
            Map.entry("postgresql.cnpg.io/v1/Database", CnpgModel.Database.class),
            Map.entry("postgresql.cnpg.io/v1/Pooler", CnpgModel.Pooler.class),
            Map.entry("postgresql.cnpg.io/v1/ScheduledBackup", CnpgModel.ScheduledBackup.class),
            Map.entry("barmancloud.cnpg.io/v1/ObjectStore", CnpgModel.ObjectStore.class),
            Map.entry("argoproj.io/v1alpha1/Application", GitOpsModel.Application.class),
            Map.entry("external-secrets.io/v1/ExternalSecret", GitOpsModel.ExternalSecret.class));

    static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .build();

    private TypedModels() {
    }

    static String key(JsonNode object) {
        return object.path("apiVersion").asText() + "/" + object.path("kind").asText();
    }

    /** Binds {@code object} to its model; returns the problems found (empty: it conforms). */
    static List<String> check(JsonNode object) {
        Class<?> model = MODELS.get(key(object));
        if (model == null) {
            return List.of("no typed model for " + key(object));
        }
        try {
            Object typed = MAPPER.treeToValue(object, model);
            List<String> problems = new ArrayList<>();
            walk(typed, "", problems, new IdentityHashMap<>());
            return problems;
        } catch (Exception e) {
            return List.of(e.getMessage().lines().findFirst().orElse(e.toString()));
        }
    }

    static <T> T bind(JsonNode object, Class<T> type) {
        try {
            return MAPPER.treeToValue(object, type);
        } catch (Exception e) {
            throw new AssertionError(Manifests.id(object) + " does not bind to " + type.getSimpleName(), e);
        }
    }

    private static void walk(Object value, String path, List<String> problems, Map<Object, Boolean> seen) {
        if (value == null || seen.put(value, Boolean.TRUE) != null) {
            return;
        }
        if (value instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                walk(item, path + "[" + i++ + "]", problems, seen);
            }
            return;
        }
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> walk(v, path + "." + k, problems, seen));
            return;
        }
        Class<?> type = value.getClass();
        String pkg = type.getPackageName();
        if (!(pkg.startsWith("io.fabric8") || pkg.startsWith("io.strimzi") || pkg.startsWith("io.pmedia"))
                || type.isEnum()) {
            return;
        }
        if (type.isRecord()) {
            for (RecordComponent component : type.getRecordComponents()) {
                walk(invoke(component.getAccessor(), value), path + "." + component.getName(), problems, seen);
            }
            return;
        }
        for (Method getter : type.getMethods()) {
            if (getter.getParameterCount() != 0 || Modifier.isStatic(getter.getModifiers())
                    || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            String name = getter.getName();
            if (name.equals("getAdditionalProperties")) {
                Object extra = invoke(getter, value);
                if (extra instanceof Map<?, ?> unknown && !unknown.isEmpty()) {
                    problems.add("unknown field(s) " + unknown.keySet() + " at " + (path.isEmpty() ? "/" : path));
                }
            } else if (name.startsWith("get") && name.length() > 3) {
                String child = path + "." + Character.toLowerCase(name.charAt(3)) + name.substring(4);
                Object field = invoke(getter, value);
                PresentInVersions versions = getter.getAnnotation(PresentInVersions.class);
                if (field != null && versions != null && !inV1(versions.value())) {
                    problems.add(child + " is not part of the v1 API (present in " + versions.value() + " only)");
                }
                walk(field, child, problems, seen);
            }
        }
    }

    /** Strimzi's version ranges: "v1beta2", "v1+", "v1beta2-v1", comma-separated. */
    private static boolean inV1(String ranges) {
        for (String range : ranges.split(",")) {
            String r = range.trim();
            if (r.equals("v1") || r.endsWith("-v1") || (r.endsWith("+") && !r.startsWith("v2"))) {
                return true;
            }
        }
        return false;
    }

    private static Object invoke(Method getter, Object target) {
        try {
            return getter.invoke(target);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
