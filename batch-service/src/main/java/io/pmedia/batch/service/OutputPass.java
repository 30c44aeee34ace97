package io.pmedia.batch.service;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.batch.BatchTask;
import io.pmedia.batch.RowStatus;
import io.pmedia.batch.repository.RowStreams;
import io.pmedia.events.SharedVideo;
import io.pmedia.storage.ObjectStore;

/**
 * The blocking core of writing a task's output file (docs/batch.md, "The output file"): one pass over its rows in file
 * order through a cursor ({@link RowStreams}), a line each ({@link OutputFile}); each row with a link gets its share
 * URL (the same each time the file is written), and its page goes to engagement-service a few hundred rows at a time
 * ({@link RowShares}, through the outbox) before the file names it. Memory stays bounded whatever the number of rows.
 * Plain (no CDI), so the links-out benchmark ({@code bench/batch/ingest.sh ROWS links}) runs exactly this code alone.
 */
public final class OutputPass {

    private final RowStreams streams;
    private final ObjectStore store;
    private final ObjectMapper mapper;
    private final String shareBaseUrl;

    /**
     * @param store names the rendered rows' videos (their paths and URLs)
     * @param shareBaseUrl where share pages are served ({@code <base>/v/<share-id>})
     */
    public OutputPass(RowStreams streams, ObjectStore store, ObjectMapper mapper, String shareBaseUrl) {
        this.streams = streams;
        this.store = store;
        this.mapper = mapper;
        this.shareBaseUrl = shareBaseUrl;
    }

    /**
     * Writes the output file of {@code task} (its {@code template} parsed) into {@code file}, its links good until
     * {@code expiresAt}, and publishes the pages of its rows with a link.
     */
    public void write(BatchTask task, JsonNode template, Instant expiresAt, Path file)
            throws IOException, SQLException {
        RowShares shares = new RowShares(task, template, mapper, shareBaseUrl, expiresAt);
        try (OutputFile output = OutputFile.create(file); RowStreams.Publication pages = streams.publication()) {
            streams.forEachRow(task.id, row -> {
                boolean video = row.status() == RowStatus.SUCCESS && row.videoKey() != null;
                // A row rendered on view has its link before its video (its page says "being prepared").
                boolean link = video || row.status() == RowStatus.ON_VIEW;
                try {
                    output.add(row, video ? store.s3Path(row.videoKey()) : null,
                            video ? store.publicUrl(row.videoKey()) : null,
                            video && row.thumbnailKey() != null ? store.publicUrl(row.thumbnailKey()) : null,
                            link ? shares.add(row) : null);
                    publish(pages, shares.take(false));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            publish(pages, shares.take(true));
            // every page is in the outbox before the file that names it is stored
            pages.commit();
        }
    }

    private static void publish(RowStreams.Publication pages, SharedVideo shared) {
        if (shared == null) {
            return;
        }
        try {
            pages.publish(shared);
        } catch (SQLException e) {
            throw new IllegalStateException("the share pages cannot be published: " + e.getMessage(), e);
        }
    }
}
