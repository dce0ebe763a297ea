"""Admin: battles to look at. The event log is append-only, so events can be read here but never changed or
deleted, and unit states (projections of the log) are read-only too."""

from django.contrib import admin

from battles.models import Battle, BattleEvent, BattleSide, BattleUnit


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class SideInline(ReadOnlyInline):
    model = BattleSide
    fields = ("index", "name", "faction", "player", "roster", "roster_version")
    readonly_fields = fields


class UnitInline(ReadOnlyInline):
    model = BattleUnit
    fields = ("key", "name", "kind", "side", "state")
    readonly_fields = fields


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "system", "status", "version", "created_by", "updated_at")
    list_filter = ("status", "system")
    search_fields = ("name",)
    readonly_fields = ("version", "state", "settings", "spectator_token", "created_by", "created_at", "updated_at")
    inlines = [SideInline, UnitInline]


@admin.register(BattleEvent)
class BattleEventAdmin(admin.ModelAdmin):
    list_display = ("battle", "seq", "type", "actor", "side_index", "created_at")
    list_filter = ("type",)
    list_select_related = ("battle", "actor")
    search_fields = ("battle__name", "type")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
