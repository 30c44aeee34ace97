package io.pmedia.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.UncheckedIOException;
import java.net.ConnectException;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** Which store failures are transient (retried by background work) and which are answers. */
class StoreUnavailableTest {

    @Test
    void aStoreThatCannotBeReachedOrAnswers5xxIsUnavailable() {
        assertThat(ObjectStore.isUnavailable(SdkClientException.builder().message("Unable to execute HTTP request")
                .cause(new ConnectException("Connection refused")).build())).isTrue();
        assertThat(ObjectStore.isUnavailable(S3Exception.builder().statusCode(503).message("SlowDown").build()))
                .isTrue();
        assertThat(ObjectStore.isUnavailable(new UncheckedIOException("reading", new java.io.IOException(
                SdkClientException.create("connection reset"))))).isTrue();
    }

    @Test
    void answersOfTheStoreAreNot() {
        assertThat(ObjectStore.isUnavailable(S3Exception.builder().statusCode(403).message("denied").build()))
                .isFalse();
        assertThat(ObjectStore.isUnavailable(S3Exception.builder().statusCode(404).message("missing").build()))
                .isFalse();
        assertThat(ObjectStore.isUnavailable(new IllegalStateException("a bug"))).isFalse();
    }
}
