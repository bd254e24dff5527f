%% @doc A key-value store kept in a process.
-module(kv_store).
-behaviour(gen_server).

-export([start_link/0, put/2, get/1]).
-export([init/1, handle_call/3]).

-include("kv_store.hrl").

-define(SERVER, ?MODULE).

-record(state, {table}).

-type key() :: binary().

%% @doc Starts the store.
-spec start_link() -> {ok, pid()}.

start_link() ->
    gen_server:start_link({local, ?SERVER}, ?MODULE, [], []).

%% @doc Stores a value under a key.
-spec put(key(), term()) -> ok.
put(Key, Value) ->
    gen_server:call(?SERVER, {put, Key, Value}).

get(Key) ->
    gen_server:call(?SERVER, {get, Key}).

init([]) ->
    {ok, #state{table = ets:new(kv, [set])}}.

handle_call({put, Key, Value}, _From, State) ->
    ets:insert(State#state.table, {Key, Value}),
    {reply, ok, State};
handle_call({get, Key}, _From, State) ->
    {reply, lookup(State, Key), State}.

lookup(#state{table = T}, Key) ->
    case ets:lookup(T, Key) of
        [{_, V}] -> {ok, V};
        [] -> not_found
    end.
