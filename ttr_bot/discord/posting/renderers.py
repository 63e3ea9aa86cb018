"""Every kind of owed post and DM, and the module that renders it. `Delivery` (delivery.py)
is given this list; each renderer registers the message types it renders with `Delivery.on`
(a type has one renderer), as the service's features register their timer kinds with the
scheduler. A new kind of post: a message type in service/messages.py (or a feature's own
messages module), a renderer module here, and its class in RENDERERS.

    message type (service)               renderer
    StartPost                            start_post.StartPosts
    TurnPost, ThinkingEdit               turn_post.TurnPosts (the last turn: final_post.py)
    HandUpdate                           hands.HandPosts (the living hand DM)
    HandoverPost, ClosingPost            seat_posts.SeatPosts
    Notice, Reminder, DirectMessage      notices.Notices
    VotePost, VoteResult                 vote_posts.VotePosts
    CupPost, CupTableOpen, CupFinal      cup_posts.CupPosts
    SeasonEndPost, BoardPost             community_posts.CommunityPosts
"""
from .community_posts import CommunityPosts
from .cup_posts import CupPosts
from .hands import HandPosts
from .notices import Notices
from .seat_posts import SeatPosts
from .start_post import StartPosts
from .turn_post import TurnPosts
from .vote_posts import VotePosts

RENDERERS = (StartPosts, TurnPosts, HandPosts, SeatPosts, Notices, VotePosts, CupPosts,
             CommunityPosts)
