package io.pmedia.deploy.checks;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

/**
 * A typed model of the CloudNativePG objects deploy/k8s uses: {@code postgresql.cnpg.io/v1} Cluster, Database and
 * ScheduledBackup and Pooler (operator 1.30) and the Barman Cloud plugin's {@code barmancloud.cnpg.io/v1} ObjectStore (0.10).
 * Neither project publishes a Java model or its CRD schemas to Maven Central or npm at a pinned version, so this is
 * ours: written from their API references, holding only the fields we set, with their types and closed value sets.
 * Parsed with unknown properties failing, so a misspelt or misplaced field is caught; a field the operator would
 * refuse for a reason beyond shape (a cross-field rule) is not.
 */
final class CnpgModel {

    private CnpgModel() {
    }

    record Cluster(String apiVersion, String kind, ObjectMeta metadata, ClusterSpec spec) {
    }

    record ClusterSpec(int instances, EmbeddedObjectMetadata inheritedMetadata, String imageName,
            PrimaryUpdateStrategy primaryUpdateStrategy,
            Boolean enableSuperuserAccess, Storage storage, PostgresConfiguration postgresql,
            ResourceRequirements resources, Affinity affinity, Bootstrap bootstrap, Managed managed,
            List<PluginConfiguration> plugins) {
    }

    record EmbeddedObjectMetadata(Map<String, String> labels, Map<String, String> annotations) {
    }

    enum PrimaryUpdateStrategy {
        @JsonProperty("unsupervised")
        UNSUPERVISED, @JsonProperty("supervised")
        SUPERVISED
    }

    record Storage(String size, String storageClass) {
    }

    record PostgresConfiguration(Map<String, String> parameters) {
    }

    record Affinity(Boolean enablePodAntiAffinity, String topologyKey) {
    }

    record Bootstrap(InitDb initdb) {
    }

    record InitDb(String database, String owner, LocalObjectReference secret) {
    }

    record Managed(List<Role> roles) {
    }

    record Role(String name, Ensure ensure, Boolean login, LocalObjectReference passwordSecret) {
    }

    enum Ensure {
        @JsonProperty("present")
        PRESENT, @JsonProperty("absent")
        ABSENT
    }

    record LocalObjectReference(String name) {
    }

    record PluginConfiguration(String name, Boolean enabled, Boolean isWALArchiver, Map<String, String> parameters) {
    }

    record Database(String apiVersion, String kind, ObjectMeta metadata, DatabaseSpec spec) {
    }

    record DatabaseSpec(LocalObjectReference cluster, String name, String owner, Ensure ensure) {
    }

    record ScheduledBackup(String apiVersion, String kind, ObjectMeta metadata, ScheduledBackupSpec spec) {
    }

    record ScheduledBackupSpec(String schedule, BackupOwnerReference backupOwnerReference,
            LocalObjectReference cluster, BackupMethod method, PluginReference pluginConfiguration,
            Boolean immediate) {
    }

    enum BackupOwnerReference {
        @JsonProperty("none")
        NONE, @JsonProperty("self")
        SELF, @JsonProperty("cluster")
        CLUSTER
    }

    enum BackupMethod {
        @JsonProperty("barmanObjectStore")
        BARMAN_OBJECT_STORE, @JsonProperty("volumeSnapshot")
        VOLUME_SNAPSHOT, @JsonProperty("plugin")
        PLUGIN
    }

    record PluginReference(String name, Map<String, String> parameters) {
    }

    record ObjectStore(String apiVersion, String kind, ObjectMeta metadata, ObjectStoreSpec spec) {
    }

    record ObjectStoreSpec(String retentionPolicy, BarmanObjectStore configuration) {
    }

    record BarmanObjectStore(String destinationPath, String endpointURL, S3Credentials s3Credentials,
            Compression wal, Compression data) {
    }

    record S3Credentials(SecretKeySelector accessKeyId, SecretKeySelector secretAccessKey, SecretKeySelector region,
            Boolean inheritFromIAMRole) {
    }

    record SecretKeySelector(String name, String key) {
    }

    record Compression(CompressionType compression) {
    }

    enum CompressionType {
        @JsonProperty("gzip")
        GZIP, @JsonProperty("bzip2")
        BZIP2, @JsonProperty("snappy")
        SNAPPY, @JsonProperty("lz4")
        LZ4, @JsonProperty("xz")
        XZ, @JsonProperty("zstd")
        ZSTD
    }

    /** {@code postgresql.cnpg.io/v1} Pooler: PgBouncer in front of a cluster. */
    record Pooler(String apiVersion, String kind, ObjectMeta metadata, PoolerSpec spec) {
    }

    record PoolerSpec(LocalObjectReference cluster, Integer instances, PoolerType type, PgBouncer pgbouncer) {
    }

    enum PoolerType {
        @JsonProperty("rw")
        RW, @JsonProperty("ro")
        RO, @JsonProperty("r")
        R
    }

    record PgBouncer(PoolMode poolMode, Map<String, String> parameters) {
    }

    enum PoolMode {
        @JsonProperty("session")
        SESSION, @JsonProperty("transaction")
        TRANSACTION
    }
}
