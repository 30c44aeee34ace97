package example;

import java.util.Map;
import java.util.UUID;

import io.pmedia.client.PmediaApiException;
import io.pmedia.client.PmediaClient;
import io.pmedia.client.PmediaException;
import io.pmedia.client.model.MediaData;
import io.pmedia.client.model.MediaRequest;
import io.pmedia.client.model.MediaStatus;

/**
 * A vendor's first program with the Java SDK, built in a fresh Maven project outside the repository against the jar
 * and POM of {@code ./pmedia sdk}. Against the stack when PMEDIA_GATEWAY_URL is set: a rendered video and a NOT_FOUND
 * caught at the root of the SDK's exceptions (no checked exception to declare or catch).
 */
public class Main {

    public static void main(String[] args) {
        String baseUrl = System.getenv("PMEDIA_GATEWAY_URL");
        if (baseUrl == null || baseUrl.isBlank()) {
            System.out.println("{\"loaded\":" + (PmediaClient.builder("http://127.0.0.1:9") != null) + "}");
            return;
        }
        PmediaClient pmedia = PmediaClient.builder(baseUrl)
                .credentials(System.getenv("PMEDIA_DEMO_CLIENT_ID"), System.getenv("PMEDIA_DEMO_CLIENT_SECRET")).build();
        MediaStatus video = pmedia.renderVideo(new MediaRequest().clientRequestId("sdk-install-java-" + UUID.randomUUID())
                .customerId("sdk-install").userId("user-1").useCaseId(System.getenv("PMEDIA_DEMO_USE_CASE_ID"))
                .data(new MediaData().personalizationFields(Map.of("name", "Ada"))));
        String notFound = "";
        try {
            pmedia.templates().getTemplate(UUID.randomUUID());
        } catch (PmediaException e) {
            notFound = e instanceof PmediaApiException ? ((PmediaApiException) e).getCode() : e.getClass().getName();
        }
        System.out.println("{\"status\":\"" + video.getStatus().getValue() + "\",\"video\":" + (video.getVideoUrl() != null)
                + ",\"notFound\":\"" + notFound + "\"}");
    }
}
