package io.pmedia.examples;

import java.util.Map;
import java.util.UUID;

import io.pmedia.client.PmediaClient;
import io.pmedia.client.model.MediaData;
import io.pmedia.client.model.MediaRequest;
import io.pmedia.client.model.MediaStatus;

/** One personalized video: created, waited for (polling with backoff), and its URLs. */
public final class PersonalizedVideo {

    private PersonalizedVideo() {
    }

    public static void main(String[] args) {
        PmediaClient pmedia = PmediaClient.builder(Env.get("PMEDIA_GATEWAY_URL"))
                .credentials(Env.get("PMEDIA_DEMO_CLIENT_ID"), Env.get("PMEDIA_DEMO_CLIENT_SECRET"))
                .build();
        MediaStatus video = render(pmedia, Env.get("PMEDIA_DEMO_USE_CASE_ID"), UUID.randomUUID().toString());
        System.out.println("video:  " + video.getVideoUrl());
        System.out.println("stream: " + video.getStreamUrl());
    }

    /** The walk-through's render: a video for Ada with her offer. */
    public static MediaStatus render(PmediaClient pmedia, String useCaseId, String clientRequestId) {
        return pmedia.renderVideo(new MediaRequest()
                .clientRequestId(clientRequestId)
                .customerId("customer-42")
                .userId("user-7")
                .useCaseId(useCaseId)
                .data(new MediaData().personalizationFields(Map.of("name", "Ada", "offer", "20% off"))));
    }
}
