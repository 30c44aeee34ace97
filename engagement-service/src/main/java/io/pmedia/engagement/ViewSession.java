package io.pmedia.engagement;

import java.io.Serializable;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/**
 * One page view of a share page (its random session id, no cookie): what it has done already, so that each step
 * (view, play, 25/50/75 %, completion, a click of the call to action) counts once however often its beacon repeats.
 */
@Entity
@Table(name = "view_session")
@IdClass(ViewSession.Key.class)
public class ViewSession extends PanacheEntityBase {

    @Id
    @Column(name = "share_id")
    public String shareId;

    @Id
    public String session;

    @Column(nullable = false)
    public LocalDate day;

    public boolean viewed;

    public boolean played;

    @Column(name = "max_percent")
    public int maxPercent;

    @Column(name = "seconds_watched")
    public double secondsWatched;

    public boolean completed;

    public boolean clicked;

    public boolean bot;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** The composite key (share id, session). */
    public static class Key implements Serializable {

        public String shareId;
        public String session;

        public Key() {
        }

        public Key(String shareId, String session) {
            this.shareId = shareId;
            this.session = session;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && key.shareId.equals(shareId) && key.session.equals(session);
        }

        @Override
        public int hashCode() {
            return Objects.hash(shareId, session);
        }
    }
}
