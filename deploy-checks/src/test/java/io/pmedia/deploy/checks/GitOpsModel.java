package io.pmedia.deploy.checks;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

import io.fabric8.kubernetes.api.model.ObjectMeta;

/**
 * A typed model of Argo CD's {@code argoproj.io/v1alpha1} Application and the External Secrets Operator's
 * {@code external-secrets.io/v1} ExternalSecret, as deploy/k8s uses them. Neither project publishes a Java model to
 * Maven Central at a version reachable here, so, like {@link CnpgModel}, this is ours: written from their API
 * references, holding only the fields we set with their types and closed value sets, parsed with unknown properties
 * failing (a misspelt or misplaced field is caught; the controllers' semantic rules are not).
 */
final class GitOpsModel {

    private GitOpsModel() {
    }

    record Application(String apiVersion, String kind, ObjectMeta metadata, ApplicationSpec spec) {
    }

    record ApplicationSpec(String project, ApplicationSource source, ApplicationDestination destination,
            SyncPolicy syncPolicy, List<ResourceIgnoreDifferences> ignoreDifferences) {
    }

    /** A Helm chart ({@code chart}) from a Helm repository, or a directory ({@code path}) of a git repository. */
    record ApplicationSource(String repoURL, String targetRevision, String path, String chart,
            ApplicationSourceHelm helm) {
    }

    record ApplicationSourceHelm(String releaseName, JsonNode valuesObject) {
    }

    record ApplicationDestination(String server, String name, String namespace) {
    }

    record SyncPolicy(SyncPolicyAutomated automated, List<String> syncOptions, RetryStrategy retry) {
    }

    record SyncPolicyAutomated(Boolean prune, Boolean selfHeal, Boolean allowEmpty) {
    }

    record RetryStrategy(Long limit, Backoff backoff) {
    }

    record Backoff(String duration, Long factor, String maxDuration) {
    }

    record ResourceIgnoreDifferences(String group, String kind, String name, String namespace,
            List<String> jsonPointers, List<String> jqPathExpressions) {
    }

    record ExternalSecret(String apiVersion, String kind, ObjectMeta metadata, ExternalSecretSpec spec) {
    }

    record ExternalSecretSpec(String refreshInterval, SecretStoreRef secretStoreRef, ExternalSecretTarget target,
            List<ExternalSecretData> data) {
    }

    record SecretStoreRef(StoreKind kind, String name) {
    }

    enum StoreKind {
        SecretStore, ClusterSecretStore
    }

    record ExternalSecretTarget(String name, CreationPolicy creationPolicy, ExternalSecretTemplate template) {
    }

    enum CreationPolicy {
        Owner, Orphan, Merge, None
    }

    record ExternalSecretTemplate(String type, Map<String, String> data) {
    }

    record ExternalSecretData(String secretKey, RemoteRef remoteRef) {
    }

    record RemoteRef(String key, String property, @JsonProperty("version") String version) {
    }
}
