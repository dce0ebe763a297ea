"""Staff views of packs, factions, profiles, rosters and clubs. Published packs are read-only here too."""

from django.contrib import admin

from armies.models import Club, DataPack, Faction, Membership, Roster, RosterEntry, ShareLink, UnitProfile


class FactionInline(admin.TabularInline):
    model = Faction
    extra = 0


class ReadOnlyWhenPublished:
    """Published packs (and their factions and profiles) never change: edit through a new version."""

    def _published(self, obj) -> bool:
        pack = obj if isinstance(obj, DataPack) else getattr(obj, "pack", None)
        return bool(pack and pack.published)

    def has_change_permission(self, request, obj=None):
        if obj is not None and self._published(obj):
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        if obj is not None and self._published(obj):
            return False
        return super().has_delete_permission(request, obj)


@admin.register(DataPack)
class DataPackAdmin(ReadOnlyWhenPublished, admin.ModelAdmin):
    list_display = ("name", "system", "slug", "version", "published", "owner", "club", "created_at")
    list_filter = ("system", "published")
    search_fields = ("name", "slug")
    readonly_fields = ("checksum", "published_at", "created_at")
    inlines = [FactionInline]


@admin.register(Faction)
class FactionAdmin(ReadOnlyWhenPublished, admin.ModelAdmin):
    list_display = ("name", "slug", "colour", "joins_any", "pack")
    list_filter = ("pack__system",)


@admin.register(UnitProfile)
class UnitProfileAdmin(ReadOnlyWhenPublished, admin.ModelAdmin):
    list_display = ("name", "slug", "kind", "cost", "faction", "pack")
    list_filter = ("kind", "pack__system", "pack")
    search_fields = ("name", "slug")
    list_select_related = ("faction", "pack")


class RosterEntryInline(admin.TabularInline):
    model = RosterEntry
    extra = 0
    raw_id_fields = ("profile",)


@admin.register(Roster)
class RosterAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "club", "system", "pack", "faction", "visibility", "version", "updated_at")
    list_filter = ("system", "visibility")
    search_fields = ("name", "owner__username")
    raw_id_fields = ("owner", "pack", "club")
    inlines = [RosterEntryInline]


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "created_at")
    search_fields = ("name",)
    inlines = [MembershipInline]


@admin.register(ShareLink)
class ShareLinkAdmin(admin.ModelAdmin):
    list_display = ("roster", "created_by", "created_at", "revoked_at")
    readonly_fields = ("token",)
