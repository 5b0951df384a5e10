from django.urls import path

from taikai.judging.views import call, penalties, prizes, public, queue

E = "events/<int:event_id>/judging/"
urlpatterns = [
    path(E, queue.judge_queue, name="judge_queue"),
    path(E + "reports/dismiss-spam/", queue.dismiss_spam_reports, name="dismiss_spam_reports"),
    path(E + "calls/new/", queue.call_new, name="judge_call_new"),
    path(E + "calls/<int:call_id>/", call.call_detail, name="judge_call"),
    path(E + "matches/<int:match_id>/time/", queue.time_procedure, name="time_procedure"),
    path(E + "tables/<int:table>/", queue.table_tools, name="table_tools"),
    path(E + "penalties/", penalties.penalty_list, name="penalty_list"),
    path(E + "penalties/new/", penalties.penalty_new, name="penalty_new"),
    path(E + "penalties/<int:penalty_id>/apply/", penalties.penalty_apply, name="penalty_apply"),
    path(E + "penalties/<int:penalty_id>/appeal/", penalties.appeal_for_player, name="appeal_for_player"),
    path(E + "penalties/<int:penalty_id>/withdraw/", penalties.penalty_withdraw, name="penalty_withdraw"),
    path(E + "appeals/<int:appeal_id>/", penalties.appeal_decide, name="appeal_decide"),
    path(E + "database/", penalties.database, name="violator_database"),
    path(E + "database/export.json", penalties.database_export, name="violator_export"),
    path(E + "database/import/", penalties.database_import, name="violator_import"),
    path(E + "prizes/", prizes.prize_page, name="prizes"),
    path("judging/rules/", public.rules_reference, name="rules_reference"),
    path("e/<int:event_id>/report/", public.report_form, name="spectator_report"),
    path("p/<str:token>/judge/", public.player_call, name="player_call_judge"),
    path("p/<str:token>/judge/<int:call_id>/cancel/", public.player_call_withdraw, name="player_call_withdraw"),
    path("p/<str:token>/report-table/", public.player_table_report, name="player_table_report"),
    path("p/<str:token>/appeal/", public.player_appeal, name="player_appeal"),
    path("p/<str:token>/record/", public.player_record, name="player_record"),
]
