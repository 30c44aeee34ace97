package io.pmedia.engagement.rest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.Fields;
import io.pmedia.common.paging.Dates;
import io.pmedia.common.security.Caller;
import io.pmedia.common.security.Roles;
import io.pmedia.engagement.service.Analytics;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * The vendor's view analytics (docs/sharing.md), of its own videos only: another vendor's request, template or
 * campaign is 404 exactly like one without videos.
 */
@Path("/analytics")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.CLIENT)
public class AnalyticsResource {

    /** Rows per database page of the CSV export. */
    static final int EXPORT_PAGE = 500;
    /** Quotes only where CSV needs them, as the batch output file. */
    private static final CsvMapper CSV = CsvMapper.builder()
            .enable(com.fasterxml.jackson.dataformat.csv.CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING).build();
    private static final CsvSchema COLUMNS = CsvSchema.builder().addColumn("share-id").addColumn("share-url")
            .addColumn("task-id").addColumn("row").addColumn("user-id").addColumn("transaction-id")
            .addColumn("views").addColumn("unique-viewers").addColumn("plays").addColumn("completions")
            .addColumn("average-percent-watched").addColumn("cta-clicks").addColumn("first-view-at")
            .addColumn("last-view-at").addColumn("first-frames-stream").addColumn("first-frames-video")
            .addColumn("first-frame-p50-ms").addColumn("first-frame-p95-ms").build();

    private final Analytics analytics;
    private final Caller caller;

    public AnalyticsResource(Analytics analytics, Caller caller) {
        this.analytics = analytics;
        this.caller = caller;
    }

    @GET
    @Path("videos/{transactionId}")
    public Uni<Analytics.VideoReport> video(@PathParam("transactionId") String transactionId) {
        UUID id;
        try {
            id = UUID.fromString(transactionId);
        } catch (IllegalArgumentException e) {
            throw ApiException.notFound("no analytics for request '" + abbreviate(transactionId) + "'");
        }
        return analytics.video(caller.clientId(), id);
    }

    @GET
    @Path("templates/{templateId}")
    public Uni<Analytics.RangeReport> template(@PathParam("templateId") String templateId,
            @QueryParam("from") String from, @QueryParam("to") String to) {
        UUID id;
        try {
            id = UUID.fromString(templateId);
        } catch (IllegalArgumentException e) {
            throw ApiException.validation("path parameter 'templateId' must be a uuid");
        }
        return analytics.template(caller.clientId(), id, date("from", from), date("to", to));
    }

    @GET
    @Path("campaigns/{campaignId}")
    public Uni<Analytics.RangeReport> campaign(@PathParam("campaignId") String campaignId,
            @QueryParam("from") String from, @QueryParam("to") String to) {
        return analytics.campaign(caller.clientId(), campaign(campaignId), date("from", from), date("to", to));
    }

    /** Every video of the campaign with its counters: what a vendor loads into its CRM. */
    @GET
    @Path("campaigns/{campaignId}/videos.csv")
    @Produces("text/csv")
    public Multi<String> campaignVideos(@PathParam("campaignId") String campaignId) {
        UUID client = caller.clientId();
        String campaign = campaign(campaignId);
        return Multi.createFrom().uni(analytics.hasCampaign(client, campaign)).onItem()
                .transformToMultiAndConcatenate(has -> {
                    if (!has) {
                        return Multi.createFrom().failure(ApiException.notFound(
                                "no analytics for campaign '" + abbreviate(campaign) + "'"));
                    }
                    String[] after = {""};
                    Multi<String> rows = Multi.createBy().repeating()
                            .uni(() -> analytics.campaignVideos(client, campaign, after[0], EXPORT_PAGE))
                            .whilst(page -> page.size() == EXPORT_PAGE)
                            .onItem().transform(page -> {
                                if (!page.isEmpty()) {
                                    after[0] = page.get(page.size() - 1).shareId();
                                }
                                return lines(page);
                            });
                    return Multi.createBy().concatenating().streams(
                            Multi.createFrom().item(header()), rows.filter(text -> !text.isEmpty()));
                });
    }

    private static String header() {
        try {
            return CSV.writer(COLUMNS.withHeader()).writeValueAsString(List.of());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String lines(List<Analytics.VideoRow> page) {
        List<Object[]> rows = new ArrayList<>();
        for (Analytics.VideoRow video : page) {
            long[] c = video.counters();
            Analytics.FirstFrameTimes frames = Analytics.FirstFrameTimes.of(video.firstFrames());
            rows.add(new Object[]{video.shareId(), video.shareUrl(), video.taskId(), video.row(), cell(video.userId()),
                    video.serviceRequestId(), c[0], c[1], c[2], c[6],
                    c[0] == 0 ? 0 : Math.round(c[9] * 1000.0 / c[0]) / 1000.0, c[7], text(video.firstViewAt()),
                    text(video.lastViewAt()), frames.stream().count(), frames.video().count(), text(frames.p50Ms()),
                    text(frames.p95Ms())});
        }
        try {
            return CSV.writer(COLUMNS.withoutHeader()).writeValueAsString(rows);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A vendor's value, neutralised when a spreadsheet would run it as a formula (OWASP, "CSV injection"). */
    static String cell(String value) {
        return value != null && !value.isEmpty() && "=+-@\t\r".indexOf(value.charAt(0)) >= 0 ? "'" + value : value;
    }

    private static String text(Object value) {
        return value == null ? "" : value.toString();
    }

    private static String campaign(String campaignId) {
        return Fields.required("campaignId", campaignId, 200);
    }

    private static LocalDate date(String name, String value) {
        return Dates.date(name, value);
    }

    private static String abbreviate(String text) {
        return text.length() > 80 ? text.substring(0, 80) + "..." : text;
    }
}
