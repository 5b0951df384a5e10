from django.utils.translation import gettext_lazy as _

from taikai.audit.actions import register

CALL_RAISED = register("taikai.judging.call_raised", _("Judge called"))
CALL_JOINED = register("taikai.judging.call_joined", _("Judge call joined by another player at the table"))
CALL_WITHDRAWN = register("taikai.judging.call_withdrawn", _("Judge call taken back by the player"))
CALL_TAKEN = register("taikai.judging.call_taken", _("Judge call taken"))
CALL_RULED = register("taikai.judging.call_ruled", _("Ruling recorded"))
CALL_CLOSED = register("taikai.judging.call_closed", _("Judge call closed"))
SPAM_REPORTS_DISMISSED = register("taikai.judging.spam_reports_dismissed", _("Spectator reports dismissed as spam"))
REPORT_RECEIVED = register("taikai.judging.report_received", _("Spectator or teammate report received"))
INTEGRITY_FLAGGED = register("taikai.judging.integrity_flagged", _("Integrity check flagged a match"))
TIME_PROCEDURE_STEP = register("taikai.judging.time_procedure_step", _("Time procedure step"))
CALL_SETTLED = register("taikai.judging.call_settled", _("Dispute call closed: the result is settled"))
TIME_PROCEDURE_UNDONE = register("taikai.judging.time_procedure_undone", _("Time procedure step undone"))
TIME_PROCEDURE_RESULT = register("taikai.judging.time_procedure_result", _("Time procedure result entered"))
PENALTY_ISSUED = register("taikai.judging.penalty_issued", _("Penalty issued"))
PENALTY_EFFECT = register("taikai.judging.penalty_effect", _("Penalty effect applied"))
EFFECT_REVERSED = register("taikai.judging.effect_reversed", _("Penalty effect reversed"))
PENALTY_WITHDRAWN = register("taikai.judging.penalty_withdrawn", _("Penalty withdrawn by the head judge"))
APPEAL_FILED = register("taikai.judging.appeal_filed", _("Appeal filed"))
APPEAL_DECIDED = register("taikai.judging.appeal_decided", _("Appeal decided"))
DATABASE_IMPORTED = register("taikai.judging.database_imported", _("Violator database imported"))
PRIZE_RANKS_SET = register("taikai.judging.prize_ranks_set", _("Prize ranks defined"))
PLAYOFF_PAIRED = register("taikai.judging.playoff_paired", _("Playoff paired"))
TABLE_TOOL = register("taikai.judging.table_tool", _("Coin, die or loop counter used"))
# registered by the API app, where publishing began; entries already logged keep the name
PRIZES_PUBLISHED = register("taikai.api.prizes_published", _("Prize list published"))
