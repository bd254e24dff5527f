#import <Foundation/Foundation.h>
#import "Store.h"

static NSString *const StoreDomain = @"store";

@interface Store : NSObject
@property (nonatomic, strong) NSMutableDictionary *items;
- (void)put:(id)item forKey:(NSString *)key;
+ (instancetype)shared;
@end

@implementation Store

/** Stores an item under a key. */
- (void)put:(id)item forKey:(NSString *)key {
  [self.items setObject:item forKey:key];
  StoreLog(key);
}

+ (instancetype)shared {
  static Store *store = nil;
  if (store == nil) {
    store = [[Store alloc] init];
  }
  return store;
}

@end

/* Logs a key. */
static void StoreLog(NSString *key) {
  NSLog(@"%@: %@", StoreDomain, key);
}
