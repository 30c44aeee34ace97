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
        // as the SDK's URL-connection client throws a kept-alive connection the store closed under a PUT (seen on the
        // local stack: a render on view failed on it, not retried)
        assertThat(ObjectStore.isUnavailable(new UncheckedIOException(
                new java.net.SocketException("Unexpected end of file from server")))).isTrue();
        assertThat(ObjectStore.isUnavailable(new UncheckedIOException(
                new java.net.SocketTimeoutException("Read timed out")))).isTrue();
    }

    @Test
    void answersOfTheStoreAreNot() {
        assertThat(ObjectStore.isUnavailable(S3Exception.builder().statusCode(403).message("denied").build()))
                .isFalse();
        assertThat(ObjectStore.isUnavailable(S3Exception.builder().statusCode(404).message("missing").build()))
                .isFalse();
        assertThat(ObjectStore.isUnavailable(new IllegalStateException("a bug"))).isFalse();
        assertThat(ObjectStore.isUnavailable(new UncheckedIOException(
                new java.nio.file.NoSuchFileException("/work/renders/x/video.mp4")))).as("a local file: a bug")
                .isFalse();
    }
}
