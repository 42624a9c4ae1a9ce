package agui_test

import (
	"testing"

	"github.com/agui-gen/agui-gen/gen/agui"
)

// TestMetaConstructorsAndAccessors: the generated constructors give valid
// events of their metaType, and the shared-field accessors read the field
// whatever the payload.
func TestMetaConstructorsAndAccessors(t *testing.T) {
	note := agui.NewNoteMeta("check the date")
	rating := agui.NewRatingMeta("m2", 4)
	tag := agui.NewTagMeta([]string{"billing"}, "m3")
	for _, tc := range []struct {
		ev                  *agui.MetaEvent
		metaType, messageID string
	}{
		{agui.NewThumbsUpMeta("m1"), "thumbs_up", "m1"},
		{agui.NewThumbsDownMeta("m1"), "thumbs_down", "m1"},
		{note, "note", ""},
		{rating, "rating", "m2"},
		{tag, "tag", ""},
		{agui.NewShareMeta(), "share", ""},
		{agui.NewModerationMeta(agui.ModerationPayloadActionHide, "spam"), "moderation", ""},
	} {
		if err := tc.ev.Validate(); err != nil {
			t.Errorf("%s: %v", tc.metaType, err)
		}
		if tc.ev.Payload.MetaType() != tc.metaType || tc.ev.MessageID() != tc.messageID {
			t.Errorf("%s: metaType %s, messageId %q", tc.metaType, tc.ev.Payload.MetaType(), tc.ev.MessageID())
		}
	}
	if tag.TargetID() != "m3" || rating.TargetID() != "" {
		t.Errorf("TargetID: %q %q", tag.TargetID(), rating.TargetID())
	}
	user := "u1"
	rating.Payload.(*agui.RatingPayload).UserID = &user
	if rating.UserID() != "u1" || note.UserID() != "" {
		t.Errorf("UserID: %q %q", rating.UserID(), note.UserID())
	}
}
