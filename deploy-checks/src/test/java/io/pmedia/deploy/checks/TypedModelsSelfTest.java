package io.pmedia.deploy.checks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** The strict binding refuses what an API server or operator would refuse or silently drop. */
class TypedModelsSelfTest {

    private static JsonNode json(String text) {
        try {
            return JsonMapper.builder().build().readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aMisspeltKubernetesFieldIsReportedWithItsPath() {
        JsonNode deployment = json("{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'x'},"
                + "'spec':{'selector':{'matchLabels':{'a':'b'}},'template':{'spec':{'containers':[{'name':'x',"
                + "'image':'x:1.0.0','livenessProbe':{'httpGet':{'path':'/q/health/live','prot':9180}}}]}}}}");

        assertThat(TypedModels.check(deployment))
                .singleElement().asString().contains("[prot]").contains("livenessProbe.httpGet");
    }

    @Test
    void aWrongTypeIsRefused() {
        JsonNode topic = json("{'apiVersion':'kafka.strimzi.io/v1','kind':'KafkaTopic','metadata':{'name':'t'},"
                + "'spec':{'partitions':'many'}}");

        assertThat(TypedModels.check(topic)).isNotEmpty();
    }

    @Test
    void aStrimziFieldThatV1DroppedIsRefused() {
        JsonNode kafka = json("{'apiVersion':'kafka.strimzi.io/v1','kind':'Kafka','metadata':{'name':'k'},"
                + "'spec':{'kafka':{'replicas':3,'listeners':[]}}}");

        assertThat(TypedModels.check(kafka)).anySatisfy(p -> assertThat(p).contains("kafka.replicas")
                .contains("not part of the v1 API"));
    }

    @Test
    void anUnknownCloudNativePgFieldAndAnUnknownValueAreRefused() {
        assertThat(TypedModels.check(json("{'apiVersion':'postgresql.cnpg.io/v1','kind':'Cluster',"
                + "'metadata':{'name':'db'},'spec':{'instances':1,'instance':3}}"))).isNotEmpty();
        assertThat(TypedModels.check(json("{'apiVersion':'postgresql.cnpg.io/v1','kind':'ScheduledBackup',"
                + "'metadata':{'name':'b'},'spec':{'schedule':'0 0 3 * * *','method':'tape'}}"))).isNotEmpty();
    }

    @Test
    void aKindWithoutAModelIsReported() {
        assertThat(TypedModels.check(json("{'apiVersion':'example.com/v1','kind':'Widget','metadata':{}}")))
                .singleElement().asString().contains("no typed model");
    }
}
