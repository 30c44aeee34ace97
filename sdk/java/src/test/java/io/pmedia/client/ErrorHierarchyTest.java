package io.pmedia.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.pmedia.client.PmediaApiException.NotFoundException;
import io.pmedia.client.invoker.ApiException;

/**
 * Every failure the SDK reports has one root a caller can catch, {@link PmediaException} (unchecked): the error
 * answers the hand-written layer turns into {@link PmediaApiException}s, and the generated operations' own
 * {@link ApiException} (a failure to complete), which the generator's template makes a PmediaException too. So no
 * generated method forces a {@code catch} of an exception that never carries an error answer.
 */
class ErrorHierarchyTest {

    @Test
    void theGeneratedApiExceptionIsAnUncheckedPmediaException() {
        assertThat(PmediaException.class).isAssignableFrom(ApiException.class);
        assertThat(RuntimeException.class).isAssignableFrom(ApiException.class);
        assertThat(PmediaException.class).isAssignableFrom(PmediaApiException.class);
        assertThat(PmediaException.class).isAssignableFrom(WebhookVerificationException.class);
        assertThat(PmediaException.class).isAssignableFrom(RenderFailedException.class);
        assertThat(PmediaException.class).isAssignableFrom(TaskFailedException.class);
    }

    @Test
    void noGeneratedOperationDeclaresACheckedException() throws Exception {
        List<String> checked = new ArrayList<>();
        List<Class<?>> apis = generatedApis();
        assertThat(apis).hasSizeGreaterThan(5);
        for (Class<?> api : apis) {
            for (Method method : api.getDeclaredMethods()) {
                if (!java.lang.reflect.Modifier.isPublic(method.getModifiers())) {
                    continue; // the generator's private helpers (prepareDownloadFile, getApiException)
                }
                for (Class<?> thrown : method.getExceptionTypes()) {
                    if (!RuntimeException.class.isAssignableFrom(thrown)) {
                        checked.add(api.getSimpleName() + "." + method.getName() + " throws " + thrown.getName());
                    }
                }
            }
        }
        assertThat(checked).isEmpty();
    }

    @Test
    void aCallerCatchesAnErrorAnswerAndATransportFailureOfAGeneratedOperationAtTheRoot() throws Exception {
        try (FakeApi api = new FakeApi(request -> request.path.equals("/auth/token")
                ? FakeApi.token(1, 3600)
                : FakeApi.error(404, "NOT_FOUND", "template not found", Map.of()))) {
            PmediaClient pmedia = PmediaClient.builder(api.url()).credentials("c", "s").build();
            PmediaException caught = null;
            try {
                pmedia.templates().getTemplate(java.util.UUID.fromString("f0e1d2c3-0000-4000-8000-000000000001"));
            } catch (PmediaException e) { // no catch (ApiException e) needed: it is unchecked
                caught = e;
            }
            assertThat(caught).isInstanceOf(NotFoundException.class);
        }
        PmediaClient nowhere = PmediaClient.builder("http://127.0.0.1:9").credentials("c", "s").build();
        PmediaException caught = null;
        try {
            nowhere.templates().getTemplate(java.util.UUID.fromString("f0e1d2c3-0000-4000-8000-000000000001"));
        } catch (PmediaException e) {
            caught = e;
        }
        assertThat(caught).isNotNull();
    }

    private static List<Class<?>> generatedApis() throws URISyntaxException, java.io.IOException,
            ClassNotFoundException {
        URL folder = ApiException.class.getResource("/io/pmedia/client/api");
        List<Class<?>> apis = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of(folder.toURI()))) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = file.getFileName().toString();
                if (name.endsWith("Api.class")) {
                    apis.add(Class.forName("io.pmedia.client.api." + name.replace(".class", "").replace(File.separator, ".")));
                }
            }
        }
        return apis;
    }
}
